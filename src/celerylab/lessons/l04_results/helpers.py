"""Lesson 04's notebook helpers: the stack (worker, job table, the shop's HTTP API), HTTP polling, Redis keys."""
from __future__ import annotations

import statistics
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from functools import partial
from unittest import mock

import httpx
import redis
from celery.result import AsyncResult

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


def watch_states(stack: Stack, tasks: dict[str, str], timeout: float = 10.0, start=None) -> dict[str, list[str]]:
    """Read each task's state every 20 ms with a fresh AsyncResult until all are ready: the states each showed.

    `start` (adding the worker that consumes a task's queue) runs beside the reading, once every task has been read
    once: a task sent to a queue no worker consumes yet is read queued, however slowly the machine reads.
    """
    def read(task_id: str) -> str:
        return AsyncResult(task_id, app=stack.app).state

    first = {name: read(task_id) for name, task_id in tasks.items()}
    with ThreadPoolExecutor(1) as pool:
        starting = pool.submit(start) if start else None
        seen = watch(read, tasks, done=lambda state: state in ("SUCCESS", "FAILURE", "REVOKED"),
                             timeout=timeout)
        if starting:
            starting.result()
    return {name: [first[name], *seen[name]] if seen[name][:1] != [first[name]] else seen[name] for name in tasks}


def result_keys(stack: Stack, task_ids: list[str]) -> tuple[int, list[int]]:
    """(how many of these tasks still have a key in the backend, the distinct TTLs those keys carry)."""
    client = redis_client(stack)
    keys = [result_key(stack, task_id) for task_id in task_ids]
    present = [key for key in keys if client.exists(key)]
    return len(present), sorted({ttl_seconds(client, key) for key in present})


def wait_succeeded(node, task_ids: list[str], since: int, timeout: float = 10.0) -> None:
    """Wait until the worker's log says each task succeeded (for tasks that store no result)."""
    for task_id in task_ids:
        node.wait_for_log(rf"\[{task_id}\] succeeded", timeout, since=since)


def post_report(http, students: int, step: float = 0.25) -> str:
    """Ask the API for a report on `students` students (`step` s a page): the job's id."""
    return http.post("/reports", json={"student_ids": list(range(1, students + 1)), "period": "2026-11",
                                       "step": step}).json()["task_id"]


def wait_progress(stack: Stack, job_id: str, at_least: int, timeout: float = 10.0) -> dict | None:
    """The job's row once its progress reached `at_least` (None at the timeout)."""
    def reached() -> dict | None:
        job = row(stack, job_id)
        return job if job and (job["progress"] or 0) >= at_least else None

    return until(reached, timeout)


def wait_row_left(stack: Stack, job_id: str, states: tuple, timeout: float = 10.0) -> dict | None:
    """The job's row once its state is no longer one of `states`."""
    def left() -> dict | None:
        job = row(stack, job_id)
        return job if job and job["state"] not in states else None

    return until(left, timeout)


def replaced_children(worker, before: list[int], timeout: float = 10.0) -> int:
    """How many of the pool processes in `before` were replaced, once the pool is full and differs from it."""
    wanted = worker.spec.concurrency
    pids = until(lambda: (lambda now: now if len(now) == wanted and now != before else None)(
        worker.child_pids()), timeout) or worker.child_pids()
    return len(set(before) - set(pids))


def result_key_size(stack: Stack, task_ids: list[str]) -> dict:
    """What the server says these result keys take: the median ``MEMORY USAGE`` (bytes), beside the bytes of one key's
    name and value, and the server that answered (the figure is the server's own accounting: Redis and Valkey differ)."""
    client = redis_client(stack)
    keys = [result_key(stack, task_id) for task_id in task_ids]
    return {"server": stack.broker.label, "name_bytes": len(keys[0]), "value_bytes": len(client.get(keys[0]) or b""),
            "memory_usage": round(statistics.median(client.memory_usage(key) or 0 for key in keys))}


def side_stacks(setups: dict[str, tuple[int, tuple]]) -> dict[str, Stack]:
    """``{name: (idle peers, main worker's extra args)}``: small stacks started in parallel, each with a
    prefork main worker (2 processes) on the default queue and its idle peers on another queue."""
    def start(peers: int, extra: tuple) -> Stack:
        workers = [WorkerSpec(pool="prefork", concurrency=2, extra_args=extra)]
        workers += [WorkerSpec(pool="prefork", concurrency=1, queues=("idle",)) for _ in range(peers)]
        return Stack.start(APP, workers=workers, settings={"result_expires": 60}, timeline=False)

    with ThreadPoolExecutor(max_workers=len(setups)) as pool:
        futures = {name: pool.submit(start, *setup) for name, setup in setups.items()}
        return {name: future.result() for name, future in futures.items()}


def _inspect(stack: Stack, worker):
    """Celery's inspect of this one worker (1 s for its reply)."""
    return stack.app.control.inspect(destination=[worker.hostname], timeout=1)


def wait_active(stack: Stack, worker, task_id: str, timeout: float = 5.0) -> bool:
    """Wait until the worker reports the task as active (running)."""
    return bool(until(lambda: any(task["id"] == task_id
                                  for task in (_inspect(stack, worker).active() or {}).get(worker.hostname, [])), timeout))


def revoked_ids(stack: Stack, worker) -> list[str]:
    """The revoked ids the worker holds in memory (asked until it answers)."""
    replies = until(_inspect(stack, worker).revoked, timeout=10) or {}
    return replies.get(worker.hostname) or []


def final_state(stack: Stack, task_id: str, timeout: float = 10.0) -> str:
    """The task's state once it is SUCCESS or REVOKED (or what it is when the timeout ends)."""
    read = lambda: AsyncResult(task_id, app=stack.app).state  # noqa: E731
    return until(lambda: (lambda state: state if state in ("SUCCESS", "REVOKED") else None)(read()), timeout) or read()


def held_send_fate(worker, task_id: str, timeout: float = 10.0) -> str:
    """What the worker, since it last started, did with a revoked send once it came due: ``discarded`` or ``ran``."""
    found = worker.wait_for_log(rf"Discarding revoked task: l04\.bulk\[{task_id}\]|l04\.bulk\[{task_id}\] succeeded",
                                timeout)
    return "discarded" if "Discarding" in found[0] else "ran"
