"""A module of the check's that the retry-defaults check loads into the learner's worker (--include): for each retry a
running task publishes of itself, the moment the task started and the moment the retry was published (the worker's
clock, UTC), kept in the result backend beside the task's result. The wait given to the retry is then bounded on both
sides: ETA − published ≤ wait ≤ ETA − started (the ETA is computed between the two)."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from celery._state import get_current_task
from celery.signals import before_task_publish, task_prerun

_started: dict[str, str] = {}  # the task running in this process (one at a time: concurrency 1): its start


def key(backend, task_id: str, retries) -> str:
    """The backend key of the record of the retry that carries `retries` (1 for the first retry)."""
    return backend.get_key_for_task(task_id, key=f":l03-retry-clock:{retries}")


@task_prerun.connect(weak=False)
def _started_at(task_id=None, **_) -> None:
    _started.clear()
    if task_id:
        _started[task_id] = datetime.now(timezone.utc).isoformat()


@before_task_publish.connect(weak=False)
def _published(headers=None, **_) -> None:
    published = datetime.now(timezone.utc).isoformat()
    running, headers = get_current_task(), headers or {}
    task_id = headers.get("id")
    if running is None or not task_id or running.request.id != task_id or task_id not in _started:
        return  # not a retry of the running task (its own id, sent again)
    try:
        running.backend.set(key(running.backend, task_id, headers.get("retries")),
                            json.dumps({"started": _started[task_id], "published": published}))
    except Exception:  # the record is the check's: a backend that refuses it never breaks the learner's retry
        pass
