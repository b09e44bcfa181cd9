"""100 tasks whose result is kept and 100 with ignore_result, through a worker with the default result_expires and one
with result_expires=None: the keys left in Redis, their TTL and their size."""
from dataclasses import dataclass

from celerylab.lessons.l07_resilience import helpers
from celerylab.stack import Stack

QUEUES = {"result_expires=86400": "celery", "result_expires=None": "forever"}  # the worker on each queue stores that


@dataclass
class ResultKeys:
    rows: list[dict]  # each setting: tasks sent, result keys found, their TTLs (hours), a value's and a key's bytes


def result_keys(stack: Stack, tasks: int = 100) -> ResultKeys:
    client, rows = helpers.keys(stack), []
    for name, queue in QUEUES.items():
        ignored = [stack.app.send_task("l07.echo", (n,), queue=queue, ignore_result=True) for n in range(tasks)]
        kept = [stack.app.send_task("l07.echo", (n,), queue=queue) for n in range(tasks)]
        [result.get(timeout=30) for result in kept]
        found = [key for key in (f"{stack.namespace}celery-task-meta-{r.id}" for r in ignored + kept)
                 if client.exists(key)]
        ttls = sorted({round(client.ttl(key) / 3600) if client.ttl(key) > 0 else -1 for key in found})
        rows.append({"setting": name, "tasks": len(kept) + len(ignored), "result_keys": len(found), "ttl_hours": ttls,
                     "bytes_per_key": round(sum(client.memory_usage(k) or 0 for k in found) / len(found)),  # MEMORY USAGE
                     "value_bytes": len(client.get(found[0]) or b"")})
    client.close()
    return ResultKeys(rows)
