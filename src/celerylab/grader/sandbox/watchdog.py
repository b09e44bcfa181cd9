"""The wall-clock deadline of one attempt of a grading job, kept outside its sandbox: each step the job reports
(its confinement, the notebook executed, a check started or done) gives it the time of the next step, never past
the end of the whole job. A job its learner's code stopped, slowed or froze (SIGSTOP) is killed at that deadline,
whatever its CPU rlimit or its own timeouts (which a stopped process never reaches)."""
from __future__ import annotations

import subprocess
import threading
import time

SETUP_SECONDS = 90  # the sandbox, the imports and the confinement, before any learner code runs
GRACE_SECONDS = 60  # beyond a step's own timeout: starting the kernel, a stack, writing the record


class Watchdog:
    """``Watchdog(execute, notebook_timeout, check_timeout, end)``; ``seen(record)`` as records arrive,
    ``wait(popen)`` until the process ends (True) or the deadline passes (False); ``phase`` says which step
    it was in ("setup", "execution" or "check")."""

    def __init__(self, execute: bool, notebook_timeout: float, check_timeout: float, end: float):
        self.execute, self.end = execute, end
        self.notebook, self.check = notebook_timeout + GRACE_SECONDS, check_timeout + GRACE_SECONDS
        self.phase = "setup"
        self._lock = threading.Lock()
        self._deadline = min(end, time.monotonic() + SETUP_SECONDS + (self.notebook if execute else self.check))

    def seen(self, record: dict) -> None:
        """A record of the job arrived: the deadline moves to this step's allowance from now."""
        kind = record.get("kind")
        if kind in ("confinement", "probe"):
            phase, allowance = ("execution", self.notebook) if self.execute else ("check", self.check)
        elif kind in ("execution", "start", "verdict"):
            phase, allowance = "check", self.check
        else:
            return
        with self._lock:
            self.phase, self._deadline = phase, min(self.end, time.monotonic() + allowance)

    @property
    def deadline(self) -> float:
        with self._lock:
            return self._deadline

    def wait(self, popen, poll: float = 0.5) -> bool:
        """Wait for `popen` to end, returning as soon as it does; False when the deadline passed first (the caller
        kills it). `poll` is how often the deadline, which records move, is looked at again."""
        while True:
            left = self.deadline - time.monotonic()
            if left <= 0:
                return popen.poll() is not None
            try:
                popen.wait(min(poll, left))
                return True
            except subprocess.TimeoutExpired:
                continue
