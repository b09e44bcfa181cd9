"""A run log in the stack's Redis: tasks record each start and end; the notebook reads and waits on it."""
from __future__ import annotations

import json
import os
import time

import redis

from celerylab.polling import read_until
from celerylab.stack.appconfig import BROKER_ENV, NAMESPACE_ENV

POLL = 0.05  # seconds between looks at the log while waiting on a condition


def _key(namespace: str, key: str) -> str:
    return f"{namespace}l02:runs:{key}"


def record(key: str, event: str, **fields) -> None:
    """Append one event of a run (called inside the task, in the worker's process)."""
    client = redis.Redis.from_url(os.environ[BROKER_ENV])
    try:
        entry = {"event": event, "at": time.time(), "pid": os.getpid(), **fields}
        client.rpush(_key(os.environ.get(NAMESPACE_ENV, ""), key), json.dumps(entry))
    finally:
        client.close()


def read(stack, key: str) -> list[dict]:
    """Every event recorded under `key` by the stack's workers, oldest first."""
    client = redis.Redis.from_url(stack.broker.url)
    try:
        return [json.loads(raw) for raw in client.lrange(_key(stack.namespace, key), 0, -1)]
    finally:
        client.close()


def events(stack, key: str, event: str) -> list[dict]:
    return [entry for entry in read(stack, key) if entry["event"] == event]


def wait(stack, key: str, event: str = "start", count: int = 1, timeout: float = 10.0) -> list[dict]:
    """Wait until `count` `event`s are recorded under `key` (or the timeout); return what there is."""
    return read_until(lambda: events(stack, key, event), lambda found: len(found) >= count, timeout, step=POLL)


def unacked(stack) -> int:
    """Messages kombu holds as delivered but not acknowledged (its `unacked` hash), in this stack's keys."""
    client = redis.Redis.from_url(stack.broker.url)
    try:
        return client.hlen(f"{stack.namespace}unacked")
    finally:
        client.close()


def queued(stack, queue: str = "celery") -> int:
    """Messages waiting in a Redis queue of this stack."""
    client = redis.Redis.from_url(stack.broker.url)
    try:
        return client.llen(f"{stack.namespace}{queue}")
    finally:
        client.close()


def watch(stack, key: str, until: float, event: str = "start") -> list[dict]:
    """Every `event` recorded under `key` up to the wall-clock time `until` (an observation window)."""
    while time.time() < until:
        time.sleep(min(POLL, max(0.0, until - time.time())))
    return events(stack, key, event)


def running_for(stack, key: str, seconds: float, timeout: float = 10.0) -> dict:
    """Wait until the task recorded under `key` has been running for `seconds`; return its start entry."""
    found = wait(stack, key, timeout=timeout)
    if not found:
        raise TimeoutError(f"{key}: no start recorded within {timeout} s")
    watch(stack, key, until=found[0]["at"] + seconds)
    return found[0]
