"""A module of the check's that the retry-defaults check loads into the learner's worker (--include): for each retry a
running task publishes of itself, the moment the task started and the moment the retry was published (the worker's
clock, UTC), kept in the result backend beside the task's result. The wait given to the retry is then bounded on both
sides: ETA − published ≤ wait ≤ ETA − started (the ETA is computed between the two). And the moment each run of a
task started, by the retries its message carries: a retry the worker ran at once (its ETA already past, as a naive
local time read as UTC makes it) is seen to have run, not looked for among the messages the worker holds."""
from __future__ import annotations

import json
from datetime import datetime, timezone

from celery._state import get_current_task
from celery.signals import before_task_publish, task_prerun

_started: dict[str, str] = {}  # the task running in this process (one at a time: concurrency 1): its start


def key(backend, task_id: str, retries, what: str = "retry-clock") -> str:
    """The backend key of the record of the retry that carries `retries` (1 for the first retry): when it was
    published ("retry-clock"), or when its run started ("retry-ran")."""
    return backend.get_key_for_task(task_id, key=f":l03-{what}:{retries}")


@task_prerun.connect(weak=False)
def _started_at(task_id=None, task=None, **_) -> None:
    _started.clear()
    if not task_id:
        return
    retries = getattr(getattr(task, "request", None), "retries", None)
    if retries:  # a retry (or a message sent as one) started running
        try:
            task.backend.set(key(task.backend, task_id, retries, "retry-ran"),
                             json.dumps(datetime.now(timezone.utc).isoformat()))
        except Exception:  # the record is the check's: a backend that refuses it never breaks the learner's task
            pass
    _started[task_id] = datetime.now(timezone.utc).isoformat()  # after that record: its write is not the task's run


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
