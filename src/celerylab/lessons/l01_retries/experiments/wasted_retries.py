"""An address the provider refuses, sent to a task that retries every exception (or a narrow list): the cost."""
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers
from celerylab.stack import Stack


@dataclass
class Wasted:
    requests: int           # calls the provider received
    countdowns: list[int]   # the waits Celery chose before each retry
    state: str
    error: str


def wasted_retries(stack: Stack, task: str = "l01.welcome_any_error", to: str = "not-an-address") -> Wasted:
    provider = helpers.email(stack)
    provider.reset()
    result = stack.app.send_task(task, (to,))  # the provider answers 400: InvalidAddress, every time
    row = helpers.outcome(stack, result)
    return Wasted(provider.stats()["requests"], row["countdowns"], row["state"], row["error"])
