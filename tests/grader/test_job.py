"""The job process's own end: its output flushed, nothing left to the interpreter's shutdown."""
from __future__ import annotations

import subprocess
import sys

ENDS = ("import atexit\nfrom celerylab.grader.job import finish\n"
        "atexit.register(print, 'the shutdown ran')\nprint('record', end='')\nfinish(3)\n")


def test_the_job_ends_with_its_output_flushed_and_without_the_interpreters_shutdown():
    done = subprocess.run([sys.executable, "-c", ENDS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 3
    assert done.stdout == "record"  # written to a pipe (buffered), flushed before the end
    assert "the shutdown ran" not in done.stdout + done.stderr  # atexit handlers and module teardown skipped
