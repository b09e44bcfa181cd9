"""Bytes a stored result costs: `count` results written by the app's backend as a worker writes them, on a broker
with nothing else (no worker): MEMORY USAGE of each key beside the growth of Redis's used_memory."""
import uuid
from dataclasses import dataclass

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack


@dataclass
class KeyCost:
    keys: int
    memory_usage: int  # MEMORY USAGE of a key, on average: the key and its value
    used_memory: int   # used_memory's growth per key: all Redis allocated for it (dictionary entries, TTL, rounding)


def key_cost(stack: Stack, count: int = 1000) -> KeyCost:
    backend, client = stack.app.backend, helpers.keys(stack)
    try:
        backend.store_result(uuid.uuid4().hex, 0, "SUCCESS")  # the backend's connection, before the measure
        before, ids = helpers.used_memory(stack), [str(uuid.uuid4()) for _ in range(count)]
        for n, task_id in enumerate(ids):
            backend.store_result(task_id, n, "SUCCESS")
        grown = helpers.used_memory(stack) - before
        found = client.keys(f"{stack.namespace}celery-task-meta-*")
        usage = sum(client.memory_usage(key) or 0 for key in found) / len(found)
        return KeyCost(len(found), round(usage), round(grown / count))
    finally:
        client.close()
