"""Atomic file writes, the one writer every module uses: a temporary file in the same folder, fsynced, then renamed over the target."""
from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path


def write_text(path: str | Path, text: str) -> Path:
    """Replace `path` with `text` so readers see the old or the new content, never a torn one."""
    return write_bytes(path, text.encode("utf-8"))


def write_bytes(path: str | Path, data: bytes) -> Path:
    """Replace `path` with `data`, atomically (see write_text)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return path


def write_json(path: str | Path, data) -> Path:
    return write_text(path, json.dumps(data, ensure_ascii=False, indent=2, sort_keys=True) + "\n")


def read_json(path: str | Path, default=None):
    """The JSON in `path`, or `default` when it is missing or unreadable."""
    try:
        return json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return default
