"""The message Beat would send every hour, sent by name to a worker that never registered its task."""
from dataclasses import dataclass

from celerylab.lessons.l03_silent_defects import helpers
from celerylab.stack import Stack


@dataclass
class Unregistered:
    logged: list[str]  # the worker's log from "Received unregistered task" on
    state: str         # what a caller with a result backend reads
    result: object     # the exception stored
    message: str       # where the message is in the broker: queue, unacked or gone


def unregistered(stack: Stack, worker, task: str = "data.backup_db") -> Unregistered:
    offset = worker.log_offset()
    result = stack.app.send_task(task, ("school",))
    logged = helpers.log_after(worker, r"Received unregistered task", offset, lines=5)
    result.get(timeout=10, propagate=False)
    return Unregistered(logged, result.state, result.result, helpers.where_is(stack, result.id))
