"""Lesson 07's notebook helpers: its stacks, a producer app like a web process's, and reads of the broker's keys."""
from __future__ import annotations

import base64
import json
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from itertools import count, islice

import httpx
import redis
from celery import Celery
from kombu.utils.functional import fxrange

from celerylab.appdb import execute
from celerylab.polling import until
from celerylab.stack import Stack, WorkerSpec
from celerylab.stack.appconfig import stack_settings

APP = "celerylab.lessons.l07_resilience.tasks"
PREFORK = WorkerSpec(pool="prefork", concurrency=2)  # what production runs: prefork, default prefetch (4 × 2)
SOLO = WorkerSpec(pool="solo")
BACKLOG = {"orders": 24, "seconds": 0.3}  # three times the prefetch: the rest waits in the Redis list for seconds
DRAINED = {"orders": 5, "seconds": 1.0}   # fewer than the prefetch holds: the list is empty, the worker waits in BRPOP
# unacked messages back after 5 s (the default: one hour), swept every 10 s (unacked_restore_interval × throttle;
# the default sweeps every 100 s, and at a worker's start)
SHORT_VISIBILITY = {"broker_transport_options": {"visibility_timeout": 5, "unacked_restore_throttle": 1}}
SCHEMA = ["CREATE TABLE IF NOT EXISTS orders (order_id INTEGER, pid INTEGER)",
          "CREATE TABLE IF NOT EXISTS runs (task_id TEXT, pid INTEGER)"]
MB = 2 ** 20

_PRODUCERS = count(1)


def stack_options(**options) -> dict:
    """Stack.start options for this lesson: a prefork worker, no event timeline, the orders table."""
    options.setdefault("workers", [PREFORK])
    options.setdefault("timeline", False)
    return {"database": SCHEMA, **options}


def start(**options) -> Stack:
    """A live stack for this lesson (see stack_options)."""
    return Stack.start(APP, **stack_options(**options))


def start_many(cases: dict[str, dict]) -> dict[str, Stack]:
    """One stack per case, started side by side (each with its own private broker)."""
    with ThreadPoolExecutor(max_workers=len(cases)) as pool:
        futures = {name: pool.submit(start, **options) for name, options in cases.items()}
        return {name: future.result() for name, future in futures.items()}


def producer_app(stack: Stack) -> Celery:
    """A Celery app of its own pointed at the stack, as a separate web process has: its own connections and result consumer.

    kombu keeps one connection pool per process for every app with the same broker URL and transport options
    (`kombu.pools.connections`, keyed by the connection's options), and `Producer.publish` writes each send's
    `retry_policy` into the pooled connections' options: an option no transport reads gives each app its own pool.
    """
    app = Celery("web", set_as_current=False)
    settings = stack_settings(stack.broker.url, stack.namespace)
    settings["broker_transport_options"] = {**settings["broker_transport_options"], "celerylab_producer": next(_PRODUCERS)}
    app.conf.update(settings)
    return app


def retry_wait(policy: dict) -> float:
    """Seconds a retry policy sleeps in all before giving up: kombu's retry_over_time intervals, summed."""
    start, step, top = policy.get("interval_start", 2), policy.get("interval_step", 2), policy.get("interval_max", 30)
    intervals = (min(value, float(top)) for value in fxrange(start, top + start, step, repeatlast=True))
    return round(sum(islice(intervals, policy["max_retries"])), 1)


def keys(stack: Stack) -> redis.Redis:
    """A plain Redis client on the stack's broker (which is also its result backend)."""
    return redis.Redis.from_url(stack.broker.url, socket_timeout=5)


def queue_lengths(stack: Stack) -> dict[str, int]:
    """Messages waiting in the `celery` list, and delivered but unacknowledged ones (the `unacked` hash)."""
    client = keys(stack)
    try:
        return {"queued": client.llen(f"{stack.namespace}celery"), "unacked": client.hlen(f"{stack.namespace}unacked")}
    finally:
        client.close()


def queued_orders(stack: Stack) -> list[int]:
    """The order ids of the l07.place_order messages waiting in the broker's `celery` list (body: [args, kwargs, embed])."""
    client = keys(stack)
    try:
        messages = [json.loads(raw) for raw in client.lrange(f"{stack.namespace}celery", 0, -1)]
    finally:
        client.close()
    return [json.loads(base64.b64decode(message["body"]))[0][0] for message in messages
            if message["headers"].get("task") == "l07.place_order"]


def expiring_orders(stack: Stack) -> list[int]:
    """The order ids of the l07.place_order messages waiting in the broker's `celery` list that can vanish unconsumed:
    the message carries a deadline (Celery's `expires` header, the `expiration` property) or the list has a TTL."""
    client = keys(stack)
    try:
        name = f"{stack.namespace}celery"
        messages, ttl = [json.loads(raw) for raw in client.lrange(name, 0, -1)], client.pttl(name)
    finally:
        client.close()
    return [json.loads(base64.b64decode(message["body"]))[0][0] for message in messages
            if message["headers"].get("task") == "l07.place_order"
            and (ttl >= 0 or message["headers"].get("expires") is not None
                 or message.get("properties", {}).get("expiration") is not None)]


def used_memory(stack: Stack) -> int:
    """Bytes the stack's Redis has allocated (`INFO memory`'s used_memory): what a key really costs, overheads included."""
    client = keys(stack)
    try:
        return client.info("memory")["used_memory"]
    finally:
        client.close()


def unacked_ids(stack: Stack) -> set[str]:
    """The task ids of the messages parked in the broker's `unacked` hash (each value: [raw message, exchange, key])."""
    client = keys(stack)
    try:
        return {json.loads(value)[0]["headers"]["id"] for value in client.hvals(f"{stack.namespace}unacked")}
    finally:
        client.close()


def settle(results: list, quiet: float = 1.5, timeout: float = 20.0) -> None:
    """Wait until every result is ready or none changed state for `quiet` seconds (some never will)."""
    last, since = -1, time.monotonic()

    def settled() -> bool:
        nonlocal last, since
        ready = sum(1 for result in results if result.ready())
        if ready == len(results):
            return True
        if ready != last:
            last, since = ready, time.monotonic()
            return False
        return time.monotonic() - since > quiet

    until(settled, timeout, step=0.1)


def log_time(line: str) -> float | None:
    """The epoch time of a worker log line ``[2026-11-30 13:11:55,081: ...]`` (local time), else None."""
    try:
        return datetime.strptime(line[1:24], "%Y-%m-%d %H:%M:%S,%f").timestamp()
    except ValueError:
        return None


class WorkerLog:
    """A worker's log lines from line `since` on, timed from the moment this was made (the broker's return)."""

    def __init__(self, worker, since: int):
        self.worker, self.since, self.back_at = worker, since, time.time()

    def lines(self) -> list[str]:
        return self.worker.logs.splitlines()[self.since:]

    def count(self, needle: str) -> int:
        return sum(1 for line in self.lines() if needle in line)

    def after(self, needle: str) -> list[float]:
        """Seconds from the return to each line holding `needle` logged after it."""
        times = [log_time(line) for line in self.lines() if needle in line]
        return [moment - self.back_at for moment in times if moment and moment > self.back_at]


def outage_log(worker, since: int, back_at: float) -> dict:
    """What a worker logged from line `since` on: when it connected again (seconds after `back_at`, the broker's
    return), how many attempts failed, and its lines about the loss and the return."""
    logs = "\n".join(worker.logs.splitlines()[since:])  # log_offset() counts lines
    connected = [log_time(line) for line in logs.splitlines() if "Connected to" in line]
    return {"reconnected": round(connected[0] - back_at, 1) if connected and connected[0] else None,
            "attempts": sum(1 for line in logs.splitlines() if "Cannot connect" in line),
            "log": log_lines(logs, "lost", "Restoring", "Cannot connect", "Trying again", "Connected to",
                             "Unrecoverable")}


def fate(stack: Stack, sent: list) -> dict:
    """What became of the orders `sent` once the worker settled: how many ran (once or more), their states, the
    messages left in the broker."""
    ran_rows = runs(stack)  # one row per run: a task run twice counts twice
    ran = set(ran_rows)
    states = [result.state for result in sent if result.id in ran]
    return {"ran": len(states), "runs": len(ran_rows), "never_ran": len(sent) - len(states),
            "ran_failure": states.count("FAILURE"), "ran_pending": states.count("PENDING"), **queue_lengths(stack),
            "ran_and_unacked": len(ran & unacked_ids(stack))}


def log_lines(text: str, *needles: str) -> list[str]:
    """The worker log lines holding one of `needles`, without their timestamp."""
    return [line.split("] ", 1)[-1] for line in text.splitlines()
            if line.startswith("[") and any(needle in line for needle in needles)]


def revive(stack: Stack) -> None:
    """Start again a worker that died (a broker restart can kill one): what a process manager does."""
    for worker in stack.workers:
        if not worker.alive:
            worker.restart()


def back(stack: Stack, since: int, timeout: float = 30.0) -> bool:
    """After an outage: wait until the worker logged `Connected to` (after line `since`) or died; start a dead one again.

    Returns whether it had died (an idle prefork worker on Celery 5.7 does, on every Redis restart: section 1).
    """
    worker = stack.workers[0]
    until(lambda: not worker.alive or any("Connected to" in line for line in worker.logs.splitlines()[since:]),
          timeout=timeout)
    died = not worker.alive
    revive(stack)
    return died


def client(stack: Stack, name: str = "shop") -> httpx.Client:
    """An HTTP client for the stack's web app."""
    return httpx.Client(base_url=stack.service_url(name), timeout=30)


def runs(stack: Stack) -> list[str]:
    """The ids of the l07.work tasks that ran to the end, once per run (the database outlives the broker)."""
    connection = stack.db()
    try:
        return [row[0] for row in execute(connection, "SELECT task_id FROM runs").fetchall()]
    finally:
        connection.close()


def processed_orders(stack: Stack) -> list[int]:
    """The order ids the worker has processed (rows the task wrote)."""
    connection = stack.db()
    try:
        return sorted(row[0] for row in execute(connection, "SELECT order_id FROM orders").fetchall())
    finally:
        connection.close()
