"""A grading job's memory cgroup: found on cgroup v1 and v2, caps the job's processes together, and is removed after."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from celerylab.grader.sandbox import job_cgroup


def test_the_memory_hierarchy_is_found_on_v1_and_on_v2(tmp_path: Path):
    (tmp_path / "memory").mkdir()
    v1 = "5:devices:/\n4:memory:/process_api/abc\n0::/\n"
    assert job_cgroup.memory_hierarchy(v1, tmp_path) == (tmp_path / "memory" / "process_api" / "abc", "v1")
    unified = tmp_path / "unified"
    unified.mkdir()
    (unified / "cgroup.controllers").write_text("cpu io memory pids\n")
    assert job_cgroup.memory_hierarchy("0::/user.slice/session-1\n", unified) == (unified / "user.slice" / "session-1", "v2")
    (unified / "cgroup.controllers").write_text("cpu pids\n")
    with pytest.raises(OSError):
        job_cgroup.memory_hierarchy("0::/user.slice\n", unified)


def cgroups_writable() -> bool:
    try:
        parent, _ = job_cgroup.memory_hierarchy()
    except OSError:
        return False
    return os.geteuid() == 0 and os.access(parent, os.W_OK)


JOB = textwrap.dedent("""
    import subprocess, sys
    from celerylab.grader.sandbox import job_cgroup
    job_cgroup.enter(200 * 2**20)
    hog = subprocess.run([sys.executable, "-c", "b = bytearray(400 * 2**20)"])
    daemon = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"], start_new_session=True)
    print(hog.returncode, daemon.pid, flush=True)
    sys.stdin.read()
""")


@pytest.mark.live
@pytest.mark.skipif(not cgroups_writable(), reason="needs root and a writable memory cgroup (run the suite as root: sudo; "
                                                             "mount cgroup2 on /sys/fs/cgroup)")
def test_the_job_is_capped_as_a_whole_and_nothing_of_it_survives_release():
    job = subprocess.Popen([sys.executable, "-c", JOB], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        hog_status, daemon = (int(word) for word in job.stdout.readline().split())
        folder = job_cgroup.job_folder(job.pid)
        assert hog_status == -9 and folder.is_dir()      # over the cap: the OOM killer ended it
        assert daemon in job_cgroup.members(folder)      # a daemon in a session of its own is still the job's
    finally:
        job.kill()
        job.wait()
        job_cgroup.release(job.pid)
    assert not folder.exists()
    assert not Path(f"/proc/{daemon}").exists() or "Z" in Path(f"/proc/{daemon}/stat").read_text().split()[2]
