"""Loaded by the reminder check's graded worker only (`celery worker -I`): every `l08.remind` keeps running
SLOW_REMINDER s after it logged its start, so the SIGKILL the check sends right after the reminder due first has run
lands while that reminder still runs (an instant reminder is always over, and acknowledged, before the kill)."""
from __future__ import annotations

import time

from celery.signals import task_postrun

SLOW_REMINDER = 2.0  # seconds: far past the check's KILL_AFTER_RUN, and under the 3 s consumer_timeout


@task_postrun.connect
def keep_running(sender=None, **_) -> None:
    """Still inside the pool process, before it hands the result back: a late acknowledgement waits for this too."""
    if getattr(sender, "name", None) == "l08.remind":
        time.sleep(SLOW_REMINDER)
