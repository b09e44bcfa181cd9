"""Schedules and time zones as lesson 05 states them, computed by Celery at fixed instants (no process)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from celery import Celery
from celery.schedules import crontab, schedule
from redbeat import RedBeatScheduler

from celerylab.lessons.l05_beat.scenarios import Clock, app_in, firings, night_runs

UTC = timezone.utc
NEW_YORK = ZoneInfo("America/New_York")


def first(zone: str, count: int = 2, **fields) -> list[datetime]:
    clock = Clock(datetime(2026, 3, 1, tzinfo=UTC))
    return firings(crontab(app=app_in(zone), nowfun=clock, **fields), clock, count=count, limit_days=70)


def test_intervals_count_elapsed_time():
    last = datetime(2026, 3, 1, tzinfo=UTC)
    clock = Clock(last + timedelta(minutes=10))
    assert tuple(schedule(3600.0, app=app_in("UTC"), nowfun=clock).is_due(last)) == (False, 3000.0)
    assert tuple(schedule(timedelta(minutes=15), app=app_in("UTC"), nowfun=clock).is_due(last)) == (False, 300.0)


def test_crontab_reads_the_app_timezone():
    assert [f.hour for f in first("UTC", hour=6, minute=0)] == [6, 6]
    assert [f.hour for f in first("America/Sao_Paulo", hour=6, minute=0)] == [9, 9]
    monday = first("America/Sao_Paulo", hour=8, minute=30, day_of_week="mon")[0]
    assert (monday.weekday(), monday.hour, monday.minute) == (0, 11, 30)
    assert first("America/Sao_Paulo", hour=0, minute=0, day_of_month=1)[0] == datetime(2026, 3, 1, 3, tzinfo=UTC)
    assert first("UTC", hour=0, minute=0, day_of_month=1)[0] == datetime(2026, 4, 1, tzinfo=UTC)
    assert first("UTC", minute="*/15") == first("America/Sao_Paulo", minute="*/15")


def test_enable_utc_does_not_move_a_crontab_when_timezone_is_set():
    now, last = datetime(2026, 3, 2, 5, tzinfo=UTC), datetime(2026, 3, 1, 12, tzinfo=UTC)
    for enable_utc in (True, False):
        cron = crontab(hour=6, minute=0, app=app_in("America/Sao_Paulo", enable_utc), nowfun=Clock(now))
        assert cron.remaining_estimate(last) == timedelta(hours=4)


def dst_runs(day: datetime, hour: int, minute: int) -> list[str]:
    clock = Clock((day - timedelta(days=1)).astimezone(UTC))
    fired = firings(crontab(hour=hour, minute=minute, app=app_in("America/New_York"), nowfun=clock), clock, count=3)
    return [f"{f.astimezone(NEW_YORK):%m-%d %H:%M %Z}" for f in fired]


def test_daylight_saving_nonexistent_hour_runs_once_late_repeated_hour_once():
    spring, fall = datetime(2026, 3, 8, tzinfo=NEW_YORK), datetime(2026, 11, 1, tzinfo=NEW_YORK)
    assert dst_runs(spring, 2, 30)[1] == "03-08 03:30 EDT"
    assert dst_runs(fall, 1, 30) == ["10-31 01:30 EDT", "11-01 01:30 EDT", "11-02 01:30 EST"]
    assert dst_runs(spring, 6, 0)[1] == "03-08 06:00 EDT"
    counts = []
    for day in (spring, fall):
        clock = Clock(day.astimezone(UTC) - timedelta(minutes=1))
        counts.append(len(night_runs(crontab(minute="0,30", hour="0-3", app=app_in("America/New_York"),
                                             nowfun=clock), clock, "America/New_York", day)))
    assert counts == [6, 8]


def test_redbeat_default_lock_is_five_max_intervals():
    defaults = RedBeatScheduler(Celery("defaults", set_as_current=False), lazy=True)
    assert (defaults.max_interval, defaults.lock_timeout) == (300, 1500)
