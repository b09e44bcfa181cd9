"""A `timedelta(days=1)` entry that first ran at 6:00 in New York, across the March change: when it runs next."""
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from celery.schedules import schedule

from celerylab.lessons.l05_beat.clock import Clock, app_in, firings

NEW_YORK = ZoneInfo("America/New_York")


@dataclass
class DailyTimedelta:
    started: datetime
    runs: list[datetime]  # its next runs (UTC instants)


def daily_timedelta(started: datetime = datetime(2026, 3, 7, 6, tzinfo=NEW_YORK), count: int = 2) -> DailyTimedelta:
    clock = Clock(started.astimezone(timezone.utc))  # the entry's first run: 6:00 local, the day before the change
    every_day = schedule(timedelta(days=1), app=app_in("America/New_York"), nowfun=clock)
    return DailyTimedelta(started, firings(every_day, clock, count=count, limit_days=3))
