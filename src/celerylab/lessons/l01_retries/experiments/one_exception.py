"""A task that raises, with no retry policy at all: how many runs, which state."""
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers
from celerylab.lessons.l01_retries import tasks_delivery as delivery
from celerylab.stack import Stack


@dataclass
class OneException:
    runs: int
    state: str
    error: str


def one_exception(stack: Stack) -> OneException:
    failed = delivery.boom.delay()                      # raises ValueError
    failed.get(timeout=10, propagate=False)
    return OneException(helpers.runs(stack, failed.id), failed.state, type(failed.result).__name__)
