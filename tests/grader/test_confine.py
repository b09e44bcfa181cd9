"""What the job observes of its own confinement (sandbox.confine.OBSERVED): each part is read from the process,
so a part that did not hold is named, never assumed (root: becoming a job user needs it)."""
from __future__ import annotations

import os

import pytest
from cgroup_support import NO_CGROUP
from test_sandbox_processes import TEST_UID, as_job_user

from celerylab.grader.sandbox import confine
from celerylab.grader.spec import JobSpec


@pytest.fixture(autouse=True)
def as_root():
    if os.geteuid() != 0:
        pytest.skip("becoming a job user needs root (run the suite as root: sudo)")


@NO_CGROUP
def test_outside_the_sandbox_the_parts_it_gives_are_missing():
    """Run where bwrap did not put it (this test process), confine names every part bwrap and the launcher give."""
    def observed() -> int:
        report = confine.confine(JobSpec([], uid=TEST_UID))
        missing = {part.split(" ")[0] for part in report["missing"]}
        expected = {"pid_namespace", "network", "memory_total", "rlimits"}
        if confine.OBSERVED["network"]():  # this test process already has only loopback (a fresh root's own network
            expected.discard("network")     # namespace, as .ci/fresh-machine makes): the machine gives that part
        return 0 if missing == expected and {"user", "no_capabilities", "sealed"} <= set(report["given"]) else 1
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            code = observed()
        finally:
            os._exit(code)
    assert os.waitstatus_to_exitcode(os.waitpid(pid, 0)[1]) == 0


def test_capabilities_count_permitted_and_ambient_too():
    assert confine.capabilities() != 0  # root, in this test process
    assert as_job_user(lambda: 0 if confine.capabilities() == 0 else 1) == 0
