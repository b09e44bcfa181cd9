"""Remote grading's tasks and results, signed with an HMAC-SHA256 key the instructor and the workers share.

The key is ``$CELERYLAB_GRADING_KEY`` (or the file named by ``$CELERYLAB_GRADING_KEY_FILE``), never in
a message. Each signature covers the kind ("job" or "result"), the task's id and the payload: a worker
runs no job it cannot verify, and the grader takes no result that is unsigned, altered, or another
task's (a classmate's result replayed for a stub).
"""
from __future__ import annotations

import hashlib
import hmac
import json
import os
from pathlib import Path

KEY_ENV, KEY_FILE_ENV = "CELERYLAB_GRADING_KEY", "CELERYLAB_GRADING_KEY_FILE"
MIN_KEY_BYTES = 16


class Unsigned(Exception):
    """No key here, or a message whose signature does not verify."""


def key() -> bytes:
    """The shared key; Unsigned when none is set or it is too short to be a key."""
    text = os.environ.get(KEY_ENV)
    if not text and os.environ.get(KEY_FILE_ENV):
        try:
            text = Path(os.environ[KEY_FILE_ENV]).read_text(encoding="utf-8").strip()
        except OSError as error:
            raise Unsigned(f"{KEY_FILE_ENV}: {error.strerror or error}") from None
    if not text or len(text.encode()) < MIN_KEY_BYTES:
        raise Unsigned(f"{KEY_ENV} (or {KEY_FILE_ENV}) must hold a key of {MIN_KEY_BYTES}+ bytes")
    return text.encode()


def _digest(kind: str, task_id: str, payload) -> str:
    body = json.dumps([kind, task_id, payload], sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hmac.new(key(), body.encode(), hashlib.sha256).hexdigest()


def sign(kind: str, task_id: str, payload) -> dict:
    return {"payload": payload, "signature": _digest(kind, task_id, payload)}


def verify(kind: str, task_id: str, message) -> object:
    """The payload of `message` if it was signed with the shared key for this kind and task; else Unsigned."""
    if not isinstance(message, dict) or not isinstance(message.get("signature"), str) or "payload" not in message:
        raise Unsigned(f"unsigned {kind}")
    if not hmac.compare_digest(message["signature"], _digest(kind, str(task_id), message["payload"])):
        raise Unsigned(f"{kind} signature does not verify (altered, or signed for another task)")
    return message["payload"]
