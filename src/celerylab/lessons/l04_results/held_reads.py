"""The learner's status API as the check serves it: a request may ask that the job finish while the route answers."""
from __future__ import annotations

import importlib
import os
import threading

from celery import states
from celery.backends.redis import RedisBackend

from celerylab import polling
from celerylab.lessons.l04_results import jobs

#: The learner's module (its `api` is served), given to the API process by the check.
ANSWER_ENV = "CELERYLAB_L04_ANSWER"
#: A request carrying this header (its value: a job id) has the route's first read of that job's result held
#: until the job's row is finished, then given the value it read: the job finishes between that read and
#: whatever the route reads next, a moment that otherwise lasts a few microseconds.
HEADER = "x-celerylab-finish-during"
HOLD_LIMIT = 10.0  # seconds a held read waits for the row at most

_armed: set[str] = set()
_lock = threading.Lock()
_read = RedisBackend.get


def arm(job_id: str) -> None:
    """Hold the next read of this job's result that finds it unfinished."""
    with _lock:
        _armed.add(job_id)


def _take(backend: RedisBackend, key) -> str | None:
    """The armed job whose result key this is, disarmed (each request holds one read), or None."""
    with _lock:
        for job_id in _armed:
            if backend.get_key_for_task(job_id) == key:
                _armed.discard(job_id)
                return job_id
    return None


def _finished(job_id: str) -> bool:
    return (jobs.get(job_id) or {}).get("state") in jobs.FINISHED


def held_get(backend: RedisBackend, key):
    """RedisBackend.get, except that an armed job's unfinished result is returned only once its row is finished."""
    value = _read(backend, key)
    job_id = _take(backend, key) if _armed else None
    if job_id and (not value or backend.decode_result(value)["status"] not in states.READY_STATES):
        polling.until(lambda: _finished(job_id), HOLD_LIMIT, step=0.02)
    return value


def serve(inner):
    """An ASGI app that arms the job named by a request's HEADER, then hands the request to `inner`."""
    wanted = HEADER.encode()

    async def app(scope, receive, send):
        if scope["type"] == "http":
            for name, value in scope.get("headers", ()):
                if name.lower() == wanted:
                    arm(value.decode())
        await inner(scope, receive, send)

    return app


def __getattr__(name: str):
    """``held_reads:api`` (what uvicorn serves): the learner's `api`, served with held reads installed."""
    if name != "api":
        raise AttributeError(name)
    RedisBackend.get = held_get  # type: ignore[method-assign]  # this process serves the check's API only
    served = globals()["api"] = serve(importlib.import_module(os.environ[ANSWER_ENV]).api)
    return served
