"""RedBeat's scheduler with no settings at all: how often it ticks and how long its lock lives."""
from dataclasses import dataclass

from celery import Celery
from redbeat import RedBeatScheduler


@dataclass
class LockDefaults:
    max_interval: float  # seconds between two ticks (and between two tries at the lock)
    lock_timeout: float  # seconds the lock lives unless renewed


def lock_defaults() -> LockDefaults:
    scheduler = RedBeatScheduler(Celery("defaults", set_as_current=False), lazy=True)  # lazy: no Redis needed
    return LockDefaults(scheduler.max_interval, scheduler.lock_timeout)
