"""The same send by name, from a producer with no result backend (a web API that only enqueues): what it can read."""
from dataclasses import dataclass

from celerylab.lessons.l03_silent_defects import helpers
from celerylab.stack import Stack


@dataclass
class NoBackendProducer:
    raised: dict[str, Exception]  # "state", "get" -> what reading the result raised
    message: str                  # where the message is in the broker: queue, unacked or gone


def no_backend_producer(stack: Stack, worker) -> NoBackendProducer:
    producer = helpers.producer_without_backend(stack)  # the stack's broker, no result_backend
    offset = worker.log_offset()
    result = producer.send_task("data.backup_db", ("school",))
    helpers.log_after(worker, r"Received unregistered task", offset)
    raised = {}
    for name, attempt in (("state", lambda: result.state), ("get", lambda: result.get(timeout=1))):
        try:
            attempt()
        except Exception as error:  # noqa: BLE001 - what the caller gets is the measurement
            raised[name] = error
    return NoBackendProducer(raised, helpers.where_is(stack, result.id))
