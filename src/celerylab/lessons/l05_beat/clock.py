"""A stopped clock for Celery's schedule maths, and Beat's loop on it: when a schedule fires, with no waiting."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from celery import Celery

UTC = timezone.utc
MAX_LOOP = 300  # seconds: the default scheduler's longest sleep between two ticks (celery/beat.py)


def app_in(zone: str, enable_utc: bool = True) -> Celery:
    """A bare Celery app whose `timezone` is `zone` (only the schedule maths are used)."""
    app = Celery("l05-clock", set_as_current=False)
    app.conf.timezone = zone
    app.conf.enable_utc = enable_utc
    return app


class Clock:
    """A fixed clock to pass as ``nowfun=``: Celery reads the time from it, the loop moves it.

    With a `zone` it reads like Beat's clock, ``app.now()``: the same instant, in the app's time zone.
    """

    def __init__(self, instant: datetime, zone=None):
        self.instant = instant
        self.zone = zone

    def __call__(self) -> datetime:
        return self.instant.astimezone(self.zone) if self.zone else self.instant


def firings(schedule, clock: Clock, count: int = 2, limit_days: int = 60) -> list[datetime]:
    """Beat's loop on a fixed clock: ask ``is_due(last_run_at)``; on True record the instant.

    Like Beat, the clock reads in the app's time zone (``app.now()``), a fresh entry's last run is "now",
    and the next check is at most MAX_LOOP away.
    """
    clock.zone = schedule.tz
    start = clock.instant
    last, fired = clock(), list[datetime]()
    while len(fired) < count and clock.instant - start < timedelta(days=limit_days):
        due, next_check = schedule.is_due(last)
        if due:
            fired.append(clock.instant)
            last = clock()
        clock.instant += timedelta(seconds=max(1, min(next_check, MAX_LOOP)))
    return fired


def night_firings(schedule, clock: Clock, zone: str, day: datetime, until_hour: int = 24) -> list[datetime]:
    """The instants a schedule fires on `day` (`zone`), from midnight until `until_hour` local time."""
    fired = firings(schedule, clock, count=48, limit_days=2)
    return [f for f in fired if f.astimezone(ZoneInfo(zone)).date() == day.date()
            and f.astimezone(ZoneInfo(zone)).hour < until_hour]


def local(instant: datetime, zone: str) -> str:
    """'Mon 03-02 08:30 UTC = 05:30 -03' for a printed table."""
    there = instant.astimezone(ZoneInfo(zone))
    return f"{instant:%a %m-%d %H:%M} UTC = {there:%H:%M %Z}"


def wall(instants: list[datetime], zone: str, shape: str = "%H:%M %Z") -> list[str]:
    """The instants as `zone`'s wall clock reads them ('01:30 EDT')."""
    return [instant.astimezone(ZoneInfo(zone)).strftime(shape) for instant in instants]


def longest_gap(fired: list[datetime]) -> int:
    """The longest real time between two consecutive runs, in minutes (instants, not wall-clock times)."""
    return max((int((b - a).total_seconds() // 60) for a, b in zip(fired, fired[1:])), default=0)
