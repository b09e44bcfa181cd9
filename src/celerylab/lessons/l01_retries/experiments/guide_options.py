"""The Tasks guide's retry options on a real worker: what each waits, how many runs, how each ends."""
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers
from celerylab.lessons.l01_retries import tasks_options as options
from celerylab.stack import Stack


@dataclass
class GuideOptions:
    logged_wait: int           # the wait the worker logs for a task that sets nothing ("Retry in 180s")
    outcomes: dict[str, dict]  # task -> state, error, runs, waits between attempts, countdowns Celery chose


def guide_options(stack: Stack) -> GuideOptions:
    worker = stack.workers[0]
    mark = worker.log_offset()
    nothing_set = options.no_delay_set.delay()
    retry_log = worker.wait_for_log(r"no_delay_set\[.*Retry in (\d+)s", timeout=10, since=mark)
    nothing_set.revoke()  # we will not wait 3 minutes
    sent = {"fixed_delay": options.fixed_delay.delay(),
            "kwargs_and_backoff": options.kwargs_and_backoff.delay(),
            "fractional_backoff": options.fractional_backoff.delay(),
            "never_gives_up": options.never_gives_up.delay(5),
            "skip_permanent(Permanent)": options.skip_permanent.delay(True),
            "skip_permanent(ConnectionError)": options.skip_permanent.delay(False)}
    return GuideOptions(int(retry_log.group(1)), {name: helpers.outcome(stack, result) for name, result in sent.items()})
