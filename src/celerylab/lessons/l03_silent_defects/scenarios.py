"""Lesson 03's measurements: real task options, real retry countdowns, the unregistered task, JSON round trips."""
from __future__ import annotations

import re
from datetime import datetime, timezone

from celerylab.lessons.l03_silent_defects import helpers
from celerylab.polling import until
from celerylab.stack import Stack

OPTIONS = re.compile(r"^(\S+) \[max_retries=(\S+) default_retry_delay=(\S+)\]$")


def task_options(stack: Stack, hostname: str | None = None) -> dict[str, tuple]:
    """{task: (max_retries, default_retry_delay)} as a running worker holds them (inspect registered)."""
    destination = [hostname] if hostname else [worker.hostname for worker in stack.workers]
    inspect = stack.app.control.inspect(destination=destination, timeout=1)
    replies = helpers.answer(inspect.registered, "max_retries", "default_retry_delay")
    options = {}
    for names in replies.values():
        for entry in names:
            match = OPTIONS.match(entry)
            if match and not match[1].startswith("celery."):
                options[match[1]] = (int(match[2]), int(match[3]))
    return options


def retry_countdown(stack: Stack, task: str, retries: int = 0, queue: str | None = None,
                    timeout: float = 10) -> int | str:
    """Send `task` as if it had already retried `retries` times; the seconds its next retry is scheduled for.

    The countdown is the retried message's ETA (inspect scheduled) minus the moment the caller saw the
    RETRY state (polled every 50 ms); "FAILURE" when the worker gave up instead of retrying.
    """
    result = stack.app.send_task(task, (1,), retries=retries, queue=queue)
    state = helpers.wait_state(result, ("RETRY", "FAILURE"), timeout)
    seen = datetime.now(timezone.utc)
    if state != "RETRY":
        return state

    def scheduled_eta() -> datetime | None:
        for entries in (stack.app.control.inspect(timeout=1, limit=len(stack.workers)).scheduled() or {}).values():
            for entry in entries:
                if entry["request"]["id"] == result.id:
                    return datetime.fromisoformat(entry["eta"])
        return None

    eta = until(scheduled_eta, timeout, step=helpers.POLL)
    return "NOT SCHEDULED" if eta is None else round((eta - seen).total_seconds())
