"""sandbox.processes: clearing the job user's processes leaves none behind, not even a zombie."""
from __future__ import annotations

import os

import psutil
import pytest

from celerylab.grader.sandbox import processes
from celerylab.grader.sandbox.confine import job_user
from celerylab.polling import until

# A user of its own, apart from the jobs' (JOB_UIDS + an even offset below 1,000,000) and their services' (odd).
TEST_UID = 4_100_000 + 2 * (os.getpid() % 100_000)


@pytest.fixture(autouse=True)
def as_root():
    if os.geteuid() != 0:
        pytest.skip("clearing a job user's processes needs a job user: only root can become one "
                    "(run the suite as root: sudo)")


def as_job_user(body) -> int:
    """Run `body` in a child process that is a job user and a subreaper, as a grading job is; its exit code."""
    pid = os.fork()
    if pid == 0:
        code = 70
        try:
            processes.become_subreaper()
            job_user(TEST_UID)
            code = body()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


def zombie_child() -> int:
    """A child of this process that has exited and is not reaped yet."""
    child = os.fork()
    if child == 0:
        os._exit(0)
    until(lambda: psutil.Process(child).status() == psutil.STATUS_ZOMBIE, 10)
    return child


def zombies_of_this_process() -> list[int]:
    return [child.pid for child in psutil.Process().children() if child.status() == psutil.STATUS_ZOMBIE]


def test_a_process_that_dies_during_the_last_scan_is_reaped():
    """A fork bomb's processes, killed by one pass, finish dying while the next scan runs: that scan sees none
    alive, so the loop ends, yet their zombies still count against the job user's process limit (the suite saw
    the first check unable to start a worker). Defence: a last reap after the loop."""
    def body() -> int:
        real_scan, scans = processes.others_of, []

        def scan(uid: int) -> list[int]:
            scans.append(uid)
            if len(scans) == 1:
                return [zombie_child()]  # alive when listed, so one pass of kill(-1) and reap follows
            zombie_child()  # killed by that pass, it becomes a zombie only after the pass's reap
            return real_scan(uid)

        processes.others_of = scan
        processes.clear_job_user(seconds=5)
        return 0 if len(scans) == 2 and not zombies_of_this_process() else 1

    assert as_job_user(body) == 0

