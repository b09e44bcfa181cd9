"""A task that retries without a countdown: the retry options a running worker holds, and the wait it schedules."""
from dataclasses import dataclass
from datetime import datetime, timezone

from celerylab.lessons.l03_silent_defects import helpers
from celerylab.polling import until
from celerylab.stack import Stack


@dataclass
class RetryWait:
    registered: list[str]  # the worker's l03.* tasks, "name [max_retries=3 default_retry_delay=180]"
    countdown: int | str   # seconds from the RETRY state to the retried message's ETA ("FAILURE": no retry)
    logged: list[str]      # the worker's "Retry in" line


def registered(stack: Stack, hostname: str | None = None) -> list[str]:
    destination = [hostname] if hostname else [worker.hostname for worker in stack.workers]
    inspect = stack.app.control.inspect(destination=destination, timeout=1)
    # registered() takes attribute names: each task comes back with their values
    replies = helpers.answer(inspect.registered, "max_retries", "default_retry_delay")
    return [name for names in replies.values() for name in names if not name.startswith("celery.")]


def retry_seconds(stack: Stack, task: str, retries: int = 0, queue: str | None = None) -> float | str:
    """Seconds from the moment the check saw the RETRY state to the retried message's ETA, to the hundredth: never
    more than the wait the worker scheduled (the ETA is set before the state is stored), a poll or so less."""
    result = stack.app.send_task(task, (1,), retries=retries, queue=queue)  # as if it had retried `retries` times
    state = helpers.wait_state(result, ("RETRY", "FAILURE"))
    seen = datetime.now(timezone.utc)
    if state != "RETRY":
        return state
    inspect = stack.app.control.inspect(timeout=1, limit=len(stack.workers))
    eta = until(lambda: helpers.eta_of(inspect.scheduled(), result.id), 10, step=helpers.POLL)  # the retried message
    return "NOT SCHEDULED" if eta is None else round((eta - seen).total_seconds(), 2)


def retry_countdown(stack: Stack, task: str, retries: int = 0, queue: str | None = None) -> int | str:
    seconds = retry_seconds(stack, task, retries, queue)
    return round(seconds) if isinstance(seconds, float) else seconds


def retry_wait(stack: Stack, worker, task: str, queue: str | None = None) -> RetryWait:
    names = [name for name in registered(stack, worker.hostname) if name.startswith("l03.")]
    offset = worker.log_offset()
    countdown = retry_countdown(stack, task, queue=queue)
    return RetryWait(names, countdown, helpers.log_after(worker, r"retry: Retry in", offset))
