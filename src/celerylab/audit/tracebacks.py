"""An exception raised by the user's code, as a traceback of the user's frames (not the audit's, not importlib's)."""
from __future__ import annotations

import traceback
from pathlib import Path

AUDIT_DIR = str(Path(__file__).resolve().parent)


def ours(filename: str) -> bool:
    return filename.startswith(AUDIT_DIR) or filename.startswith("<frozen importlib")


def user_traceback(error: BaseException) -> str:
    """`error` formatted like Python does, minus the frames of the audit and of the import machinery."""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if not ours(frame.filename)]
    lines = ["Traceback (most recent call last):\n"] if frames else []
    lines += traceback.format_list(frames)
    lines += traceback.format_exception_only(type(error), error)
    return "".join(lines).rstrip("\n")
