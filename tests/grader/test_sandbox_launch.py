"""The job's launcher: the command it starts runs under the job's limits, and a memory cgroup it cannot set means
the sandbox, and so the job, never start (fail closed)."""
from __future__ import annotations

import os
import subprocess
import sys

import pytest
from cgroup_support import NO_CGROUP

from celerylab.grader.sandbox import job_cgroup, launch

LAUNCH = [sys.executable, "-P", "-m", "celerylab.grader.sandbox.launch"]




def launched(memory: str, cpu: str, *command: str) -> tuple[int, str, str]:
    popen = subprocess.Popen([*LAUNCH, memory, cpu, "--", *command], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                             text=True)
    try:
        out, err = popen.communicate(timeout=60)
    finally:
        job_cgroup.release(popen.pid)  # as root the launcher made a cgroup named after its pid
    return popen.returncode, out, err


@NO_CGROUP
def test_what_it_starts_runs_under_the_jobs_limits():
    code, out, err = launched(str(2**30), "7", "/bin/sh", "-c", "ulimit -t; ulimit -c")
    assert code == 0 and out.split() == ["7", "0"], (out, err)


@pytest.mark.skipif(os.geteuid() != 0, reason="the job's memory cgroup is made as root (run the suite as root: sudo)")
@NO_CGROUP
def test_a_memory_cgroup_that_cannot_be_set_starts_nothing(tmp_path):
    marker = tmp_path / "ran"
    code, _, err = launched("-5", "60", "/bin/sh", "-c", f"touch {marker}")
    assert code == launch.FAILED and err.startswith("celerylab sandbox: OSError"), err
    assert not marker.exists()
