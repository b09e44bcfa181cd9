"""The watchdog outside the sandbox: a stopped job is killed at its step's deadline, never past the job's end."""
from __future__ import annotations

import signal
import subprocess
import time

import pytest

from celerylab.grader.sandbox import watchdog
from celerylab.grader.sandbox.watchdog import Watchdog


@pytest.fixture
def stopped():
    """A process stopped by SIGSTOP, as learner code can stop its job: it never ends by itself."""
    popen = subprocess.Popen(["sleep", "600"])
    popen.send_signal(signal.SIGSTOP)
    yield popen
    popen.kill()
    popen.wait()


def test_a_stopped_job_is_given_up_at_its_steps_deadline(stopped, monkeypatch):
    monkeypatch.setattr(watchdog, "SETUP_SECONDS", 0.2)
    monkeypatch.setattr(watchdog, "GRACE_SECONDS", 0)
    dog = Watchdog(execute=True, notebook_timeout=0.3, check_timeout=100, end=time.monotonic() + 600)
    dog.seen({"kind": "confinement", "given": []})
    assert dog.phase == "execution"
    assert dog.wait(stopped, poll=0.05) is False
    assert stopped.poll() is None  # the caller kills it (job_launch.kill_tree)


def test_each_step_moves_the_deadline_but_never_past_the_jobs_end(monkeypatch):
    monkeypatch.setattr(watchdog, "GRACE_SECONDS", 0)
    end = time.monotonic() + 50
    dog = Watchdog(execute=True, notebook_timeout=1000, check_timeout=10, end=end)
    assert dog.deadline == end and dog.phase == "setup"
    dog.seen({"kind": "confinement"})
    assert dog.deadline == end and dog.phase == "execution"
    dog.seen({"kind": "execution", "notes": []})
    assert dog.phase == "check" and dog.deadline <= time.monotonic() + 10 < end
    before = dog.deadline
    dog.seen({"kind": "something else"})
    assert dog.deadline == before


def test_a_job_that_ends_in_time_is_not_given_up():
    popen = subprocess.Popen(["true"])
    assert Watchdog(execute=False, notebook_timeout=1, check_timeout=30, end=time.monotonic() + 60).wait(popen)


def test_the_end_of_a_job_is_seen_at_once_not_at_the_next_look_at_the_deadline():
    popen = subprocess.Popen(["sleep", "0.2"])
    started = time.monotonic()
    assert Watchdog(execute=False, notebook_timeout=1, check_timeout=600, end=started + 600).wait(popen, poll=60)
    assert time.monotonic() - started < 30  # a blind sleep between looks would take the whole 60 s poll
