"""The waits Celery's own backoff function computes (no jitter), and the defaults of a task that sets nothing."""
from dataclasses import dataclass

from celery.utils.time import get_exponential_backoff_interval as backoff

from celerylab.lessons.l01_retries import tasks


def wait(factor: int, n: int) -> int:
    """The wait before retry n + 1, as autoretry_for computes it with retry_backoff=factor and retry_jitter=False."""
    return backoff(factor=factor, retries=n, maximum=600, full_jitter=False)


@dataclass
class BackoffWaits:
    rows: list[dict]          # retry, its wait with factor 1, with factor 3
    first_capped_retry: int   # the first retry that waits the 600 s cap
    window_lesson: int        # seconds the first 3 retries wait, in all
    window_notes: int         # ... the first 5
    default_retry_delay: int
    default_max_retries: int
    window_default: int       # max_retries × default_retry_delay


def backoff_waits(retries: int = 12) -> BackoffWaits:
    rows = [{"retry": n + 1, "factor_1": wait(1, n), "factor_3": wait(3, n)} for n in range(retries)]
    task = tasks.app.Task  # what every task inherits when it sets nothing
    return BackoffWaits(rows, 1 + min(n for n in range(30) if wait(1, n) == 600),
                        sum(wait(1, n) for n in range(3)), sum(wait(1, n) for n in range(5)),
                        task.default_retry_delay, task.max_retries, task.max_retries * task.default_retry_delay)
