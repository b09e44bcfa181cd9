"""The learner's status API as the check serves it: a request may ask that the job finish while the route answers."""
from __future__ import annotations

import importlib
import os
import threading

from celery.backends.redis import RedisBackend

from celerylab import appdb, polling
from celerylab.lessons.l04_results import jobs

#: The learner's module (its `api` is served), given to the API process by the check.
ANSWER_ENV = "CELERYLAB_L04_ANSWER"
#: A request carrying this header (its value: a job id) has the job finish between the route's first read of it
#: (its row or its result, whichever comes first) and the route's next read of it: that next read waits until the
#: job's row is finished. The moment between two reads otherwise lasts a few microseconds.
HEADER = "x-celerylab-finish-during"
HOLD_LIMIT = 10.0  # seconds a held read waits for the row at most

_armed: dict[str, int] = {}  # armed job id -> the route's reads of it so far
_lock = threading.Lock()
_local = threading.local()  # `.waiting`: this thread polls the row for a held read, reads it uncounted
_read = RedisBackend.get
_execute = appdb.execute


def arm(job_id: str) -> None:
    """Hold the next request's second read of this job (its row or its result) until the job's row is finished."""
    with _lock:
        _armed[job_id] = 0


def _finished(job_id: str) -> bool:
    return (jobs.get(job_id) or {}).get("state") in jobs.FINISHED


def reading(job_id: str) -> None:
    """A read of `job_id` is about to happen: the first one of an armed job is counted, the second waits until the
    job's row is finished (and disarms it: each request holds one read)."""
    with _lock:
        if job_id not in _armed:
            return
        if _armed[job_id] == 0:
            _armed[job_id] = 1
            return
        del _armed[job_id]
    _local.waiting = True
    try:
        polling.until(lambda: _finished(job_id), HOLD_LIMIT, step=0.02)
    finally:
        _local.waiting = False


def _counting() -> list[str]:
    """The armed jobs whose reads are counted now (none while this thread polls for a held read)."""
    if getattr(_local, "waiting", False):
        return []
    with _lock:
        return list(_armed)


def held_get(backend: RedisBackend, key):
    """RedisBackend.get, counted as a read of the armed job whose result key it is."""
    for job_id in _counting():
        if backend.get_key_for_task(job_id) == key:
            reading(job_id)
    return _read(backend, key)


def held_execute(connection, sql: str, params: tuple = ()):
    """appdb.execute, a SELECT that names an armed job (a parameter or in its text) counted as a read of it."""
    if sql.lstrip()[:6].upper() == "SELECT":
        for job_id in _counting():
            if job_id in sql or job_id in (str(param) for param in params):
                reading(job_id)
    return _execute(connection, sql, params)


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
    appdb.execute = held_execute  # the job table's reads (jobs.get and the rest go through it)
    served = globals()["api"] = serve(importlib.import_module(os.environ[ANSWER_ENV]).api)
    return served
