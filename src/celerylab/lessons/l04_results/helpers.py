"""Lesson 04's notebook helpers: the stack (worker, job table, the shop's HTTP API), HTTP polling, Redis keys."""
from __future__ import annotations

from contextlib import contextmanager
from functools import partial
from unittest import mock

import httpx
import redis

from celerylab import localized, polling
from celerylab.lessons.l04_results import jobs
from celerylab.stack import Stack, StackSpec, WorkerSpec

APP = "celerylab.lessons.l04_results.tasks"
WEB = "celerylab.lessons.l04_results.web:api"
RESULT_EXPIRES = 3  # seconds: short on purpose, so that the lesson sees results expire


#: One prefork worker (2 processes), result_expires=3, the job table, no event timeline; the shop's API served by uvicorn
#: (``stack.service_url("shop")``).
SPEC = StackSpec(APP, workers=[WorkerSpec(pool="prefork", concurrency=2)], settings={"result_expires": RESULT_EXPIRES},
                 database=jobs.SCHEMA, timeline=False, http_apps={"shop": WEB})


def start(**changes) -> Stack:
    """The lesson's stack (SPEC, with `changes`): broker, worker, job table and the shop's API."""
    return Stack.start(SPEC, **changes)


def client(stack: Stack) -> httpx.Client:
    """An HTTP client for the shop's API."""
    return httpx.Client(base_url=stack.service_url("shop"), timeout=10)


until = partial(polling.until, step=0.02)  # the shop's API answers fast: poll it often
read_until = partial(polling.read_until, step=0.02)


def states_seen(read, done, timeout: float = 10.0, step: float = 0.02) -> list:
    """Every distinct value `read()` gave, in order, polling until `done(value)`."""
    seen: list = []

    def look() -> bool:
        value = read()
        if not seen or seen[-1] != value:
            seen.append(value)
        return done(value)

    polling.until(look, timeout, step)
    return seen


def watch(read, keys: dict, done, timeout: float = 10.0, step: float = 0.02) -> dict[str, list]:
    """Poll ``read(value)`` for every entry of `keys` each round until its answer is `done`: the distinct answers of
    each, in order. A key is read no more once done: a result that expires while another key is still polled (this
    lesson's results live 3 s) does not read PENDING again."""
    seen: dict[str, list] = {name: [] for name in keys}
    unfinished = dict(keys)

    def look() -> bool:
        for name, value in list(unfinished.items()):
            answer = read(value)
            if not seen[name] or seen[name][-1] != answer:
                seen[name].append(answer)
            if done(answer):
                del unfinished[name]
        return not unfinished

    polling.until(look, timeout, step)
    return seen


@contextmanager
def backend_reads(app):
    """Count the result backend's reads of a task's key (one GET to Redis each) while the block runs: ``.call_count``."""
    with mock.patch.object(app.backend, "get", wraps=app.backend.get) as reads:
        yield reads


def redis_client(stack: Stack) -> redis.Redis:
    """A plain Redis client on the stack's backend (keys carry the stack's namespace)."""
    return redis.Redis.from_url(stack.broker.url)


def seconds(value: float) -> str:
    """A measured duration as the page prints it: one decimal (a comma in Portuguese) and a unit."""
    return f"{localized.number(value, digits=1)} s"


def ttl_left(client: redis.Redis, key: bytes) -> str:
    """A key's time to live as measured now, from PTTL: ``2,9 s`` (what is left, read a moment after the write)."""
    return seconds(client.pttl(key) / 1000)


def ttl_seconds(client: redis.Redis, key: bytes) -> int:
    """A key's time to live in whole seconds, rounded from PTTL (-1: no expiry, -2: no key).

    Redis's TTL rounds and fakeredis's floors; PTTL agrees on both.
    """
    milliseconds = client.pttl(key)
    return milliseconds if milliseconds < 0 else round(milliseconds / 1000)


def result_key(stack: Stack, task_id: str) -> bytes:
    """The backend's key for one task: ``<namespace>celery-task-meta-<id>``."""
    return stack.app.backend.get_key_for_task(task_id)


def row(stack: Stack, job_id: str) -> dict | None:
    connection = stack.db()
    try:
        return jobs.get(job_id, connection)
    finally:
        connection.close()
