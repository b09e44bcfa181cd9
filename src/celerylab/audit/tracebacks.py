"""An exception raised by the user's code, as a traceback of the user's own frames (not the audit's, Celery's or Python's)."""
from __future__ import annotations

import os
import traceback
from pathlib import Path

AUDIT_DIR = str(Path(__file__).resolve().parent)
STDLIB = os.path.dirname(os.__file__)


def user_frame(filename: str) -> bool:
    """A frame in a file of the user's project: not the audit, not the interpreter, not an installed package."""
    return not (filename.startswith((AUDIT_DIR, STDLIB, "<")) or "site-packages" in filename
                or "dist-packages" in filename)


def user_traceback(error: BaseException) -> str:
    """`error` formatted as Python does, keeping only the user's frames (none for a SyntaxError in their file,
    whose own lines already say where)."""
    kept = [frame for frame in traceback.extract_tb(error.__traceback__) if user_frame(frame.filename)]
    lines = ["Traceback (most recent call last):\n"] if kept else []
    lines += traceback.format_list(kept)
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines).rstrip("\n")
