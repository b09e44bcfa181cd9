"""Lesson 04's longer measurements: state sequences, the TTL a result gets, key growth, the revoke cases."""
from __future__ import annotations

import statistics
import uuid
from concurrent.futures import ThreadPoolExecutor

from celery import Celery
from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack, WorkerSpec


def probe_app(stack: Stack, **settings) -> Celery:
    """A client app with the stack's settings and `settings` on top (its backend is the worker's code)."""
    probe = Celery("probe", set_as_current=False)
    probe.conf.update(stack.app.conf.table(with_defaults=False))
    probe.conf.update(settings)
    return probe


def ttl_after_success(stack: Stack, result_expires) -> dict:
    """Store a SUCCESS the way a worker does (mark_as_done) under `result_expires`; read the key's TTL."""
    probe = probe_app(stack, result_expires=result_expires)
    task_id = str(uuid.uuid4())
    probe.backend.mark_as_done(task_id, 42)
    key = probe.backend.get_key_for_task(task_id)
    ttl = helpers.ttl_seconds(helpers.redis_client(stack), key)
    probe.close()
    return {"result_expires": result_expires, "ttl": ttl}


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
        seen = helpers.watch(read, tasks, done=lambda state: state in ("SUCCESS", "FAILURE", "REVOKED"),
                             timeout=timeout)
        if starting:
            starting.result()
    return {name: [first[name], *seen[name]] if seen[name][:1] != [first[name]] else seen[name] for name in tasks}


def result_keys(stack: Stack, task_ids: list[str]) -> tuple[int, list[int]]:
    """(how many of these tasks still have a key in the backend, the distinct TTLs those keys carry)."""
    client = helpers.redis_client(stack)
    keys = [helpers.result_key(stack, task_id) for task_id in task_ids]
    present = [key for key in keys if client.exists(key)]
    return len(present), sorted({helpers.ttl_seconds(client, key) for key in present})


def wait_succeeded(node, task_ids: list[str], since: int, timeout: float = 10.0) -> None:
    """Wait until the worker's log says each task succeeded (for tasks that store no result)."""
    for task_id in task_ids:
        node.wait_for_log(rf"\[{task_id}\] succeeded", timeout, since=since)


def post_report(http, students: int, step: float = 0.25) -> str:
    return http.post("/reports", json={"student_ids": list(range(1, students + 1)), "period": "2026-11",
                                       "step": step}).json()["task_id"]


def wait_progress(stack: Stack, job_id: str, at_least: int, timeout: float = 10.0) -> dict | None:
    return helpers.until(lambda: (lambda job: job if (job["progress"] or 0) >= at_least else None)(
        helpers.row(stack, job_id)), timeout)


def wait_row_left(stack: Stack, job_id: str, states: tuple, timeout: float = 10.0) -> dict | None:
    """The job's row once its state is no longer one of `states`."""
    return helpers.until(lambda: (lambda job: job if job["state"] not in states else None)(
        helpers.row(stack, job_id)), timeout)


def replaced_children(worker, before: list[int], timeout: float = 10.0) -> int:
    """How many of the pool processes in `before` were replaced, once the pool is full and differs from it."""
    wanted = worker.spec.concurrency
    pids = helpers.until(lambda: (lambda now: now if len(now) == wanted and now != before else None)(
        worker.child_pids()), timeout) or worker.child_pids()
    return len(set(before) - set(pids))


def result_key_size(stack: Stack, task_ids: list[str]) -> dict:
    """What the server says these result keys take: the median ``MEMORY USAGE`` (bytes), beside the bytes of one key's
    name and value, and the server that answered (the figure is the server's own accounting: Redis and Valkey differ)."""
    client = helpers.redis_client(stack)
    keys = [helpers.result_key(stack, task_id) for task_id in task_ids]
    return {"server": stack.broker.label, "name_bytes": len(keys[0]), "value_bytes": len(client.get(keys[0])),
            "memory_usage": round(statistics.median(client.memory_usage(key) for key in keys))}


def side_stacks(setups: dict[str, tuple[int, tuple]]) -> dict[str, Stack]:
    """``{name: (idle peers, main worker's extra args)}``: small stacks started in parallel, each with a
    prefork main worker (2 processes) on the default queue and its idle peers on another queue."""
    def start(peers: int, extra: tuple) -> Stack:
        workers = [WorkerSpec(pool="prefork", concurrency=2, extra_args=extra)]
        workers += [WorkerSpec(pool="prefork", concurrency=1, queues=("idle",)) for _ in range(peers)]
        return Stack.start(helpers.APP, workers=workers, settings={"result_expires": 60}, timeline=False)

    with ThreadPoolExecutor(max_workers=len(setups)) as pool:
        futures = {name: pool.submit(start, *setup) for name, setup in setups.items()}
        return {name: future.result() for name, future in futures.items()}


def _inspect(stack: Stack, worker):
    return stack.app.control.inspect(destination=[worker.hostname], timeout=1)


def wait_active(stack: Stack, worker, task_id: str, timeout: float = 5.0) -> bool:
    """Wait until the worker reports the task as active (running)."""
    return bool(helpers.until(lambda: any(task["id"] == task_id for task in
                                          (_inspect(stack, worker).active() or {}).get(worker.hostname, [])), timeout))


def revoked_ids(stack: Stack, worker) -> list[str]:
    """The revoked ids the worker holds in memory (asked until it answers)."""
    replies = helpers.until(_inspect(stack, worker).revoked, timeout=10) or {}
    return replies.get(worker.hostname) or []


def final_state(stack: Stack, task_id: str, timeout: float = 10.0) -> str:
    """The task's state once it is SUCCESS or REVOKED (or what it is when the timeout ends)."""
    read = lambda: AsyncResult(task_id, app=stack.app).state  # noqa: E731
    return helpers.until(lambda: (lambda state: state if state in ("SUCCESS", "REVOKED") else None)(read()),
                         timeout) or read()


def held_send_fate(worker, task_id: str, timeout: float = 10.0) -> str:
    """What the worker, since it last started, did with a revoked send once it came due: ``discarded`` or ``ran``."""
    found = worker.wait_for_log(rf"Discarding revoked task: l04\.bulk\[{task_id}\]|l04\.bulk\[{task_id}\] succeeded",
                                timeout)
    return "discarded" if "Discarding" in found[0] else "ran"
