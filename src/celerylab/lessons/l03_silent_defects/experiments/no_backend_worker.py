"""The reverse set-up: the caller has a result backend, a second worker (queue nobackend) has none."""
from dataclasses import dataclass

from celerylab.lessons.l03_silent_defects import helpers
from celerylab.stack import Stack, WorkerSpec


@dataclass
class NoBackendWorker:
    logged: list[str]  # the bare worker's "Received unregistered task" line
    state: str         # what the caller reads after up to 3 s
    message: str       # where the message is in the broker: queue, unacked or gone


def no_backend_worker(stack: Stack, wait: float = 3) -> NoBackendWorker:
    bare = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("nobackend",),
                                       settings={"result_backend": None}))
    offset = bare.log_offset()
    result = stack.app.send_task("data.backup_db", ("school",), queue="nobackend")
    logged = helpers.log_after(bare, r"Received unregistered task", offset)
    state = helpers.wait_state(result, ("FAILURE",), timeout=wait)  # a worker with a backend stores FAILURE
    return NoBackendWorker(logged, state, helpers.where_is(stack, result.id, "nobackend"))
