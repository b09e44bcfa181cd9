"""While the user's code runs (importing the app, reading its settings), what it prints goes to stderr: stdout is the report's."""
from __future__ import annotations

import os
import sys
from contextlib import contextmanager, redirect_stdout


@contextmanager
def stdout_to_stderr():
    """Python's `sys.stdout` and file descriptor 1 both write to stderr inside the block (a `print`, an
    `os.write(1, ...)`, a logging handler made on `sys.stdout` there); both are restored after it."""
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (AttributeError, ValueError, OSError):
            pass
    try:
        saved = os.dup(1)
        os.dup2(2, 1)
    except OSError:  # no descriptor 1 or 2 (a closed stdout): Python's streams are still redirected
        saved = None
    try:
        with redirect_stdout(sys.stderr):
            yield
    finally:
        try:
            sys.stderr.flush()
        except (AttributeError, ValueError, OSError):
            pass
        if saved is not None:
            os.dup2(saved, 1)
            os.close(saved)
