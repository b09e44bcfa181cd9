"""The skip for machines whose kernel gives no memory cgroup (a chroot without /sys/fs/cgroup), shared by the grader's tests."""
from __future__ import annotations

import pytest


def no_memory_cgroup() -> bool:
    """True on a machine whose kernel gives this process no memory cgroup (a chroot without /sys/fs/cgroup)."""
    from celerylab.grader.sandbox.job_cgroup import memory_hierarchy

    try:
        memory_hierarchy()
    except OSError:
        return True
    return False


NO_CGROUP = pytest.mark.skipif(no_memory_cgroup(), reason="no memory cgroup controller on this machine "
                                                            "(mount cgroup2 on /sys/fs/cgroup)")
