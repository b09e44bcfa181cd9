"""A manual retry whose countdown comes from the webhook's Retry-After: the calls, the wait Celery chose."""
from dataclasses import dataclass

from celerylab.lessons.l01_retries import helpers, tasks
from celerylab.stack import Stack


@dataclass
class RetryAfter:
    statuses: list[int]      # each call's HTTP status, in order
    state: str
    countdowns: list[float]  # the wait Celery chose before each retry
    gaps: list[float]        # seconds between the webhook's calls


def retry_after(stack: Stack, times: int = 1, seconds: int = 2) -> RetryAfter:
    hook = helpers.webhook(stack)
    hook.reset()
    hook.limit(times=times, retry_after=seconds)  # the next call(s) get a 429 with Retry-After: 2
    limited = tasks.notify_webhook.delay({"order": 1})
    limited.get(timeout=30, propagate=False)
    calls = hook.calls()
    return RetryAfter([call["status"] for call in calls], limited.state,
                      helpers.countdowns(stack, limited.id, len(calls) - 1),
                      [round(b["at"] - a["at"], 1) for a, b in zip(calls, calls[1:])])
