"""A real worker with result_expires=2.7: the TTL its result gets."""
from dataclasses import dataclass

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack, WorkerSpec


@dataclass
class WorkerTtl:
    result: int
    ttl: int  # seconds, the key's TTL right after the worker stored it


def worker_ttl(stack: Stack, result_expires: float = 2.7) -> WorkerTtl:
    worker = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("e27",),
                                         settings={"result_expires": result_expires}))
    result = stack.app.send_task("l04.double", (1,), queue="e27")
    value = result.get(timeout=10)
    ttl = helpers.ttl_seconds(helpers.redis_client(stack), stack.app.backend.get_key_for_task(result.id))
    worker.terminate()  # the stack keeps the workers it had
    return WorkerTtl(value, ttl)
