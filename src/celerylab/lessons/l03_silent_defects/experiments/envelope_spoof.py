"""Data that looks like kombu's typed envelope ({"__type__", "__value__"}): what the worker does with it."""
from dataclasses import dataclass

from celerylab.lessons.l03_silent_defects import helpers, tasks
from celerylab.stack import Stack


@dataclass
class Dropped:
    logged: list[str]  # the worker's line about the message, without the message's headers
    state: str         # what the caller reads
    message: str       # where the message is in the broker: queue, unacked or gone


def envelope_spoof(stack: Stack, worker, data: dict | None = None) -> Dropped:
    offset = worker.log_offset()
    result = tasks.describe.delay(data or {"__type__": "x", "__value__": 1})
    logged = helpers.log_after(worker, r"Can't decode message body", offset)
    return Dropped([line.split(" [type:")[0] for line in logged], result.state, helpers.where_is(stack, result.id))
