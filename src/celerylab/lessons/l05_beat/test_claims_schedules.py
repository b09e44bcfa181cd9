"""Schedules and time zones as lesson 05 states them, computed by Celery at fixed instants (no process)."""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from celery import Celery
from celery.beat import Scheduler
from celery.schedules import crontab, schedule
from celery.signals import before_task_publish
from redbeat import RedBeatScheduler

from celerylab.lessons.l05_beat.scenarios import Clock, app_in, firings, longest_gap, night_firings, night_runs

UTC = timezone.utc
NEW_YORK = ZoneInfo("America/New_York")


def first(zone: str, count: int = 2, **fields) -> list[datetime]:
    clock = Clock(datetime(2026, 3, 1, tzinfo=UTC))
    return firings(crontab(app=app_in(zone), nowfun=clock, **fields), clock, count=count, limit_days=70)


def test_intervals_count_elapsed_time(observe):
    last = datetime(2026, 3, 1, tzinfo=UTC)
    clock = Clock(last + timedelta(minutes=10))
    hourly = tuple(schedule(3600.0, app=app_in("UTC"), nowfun=clock).is_due(last))
    quarter = tuple(schedule(timedelta(minutes=15), app=app_in("UTC"), nowfun=clock).is_due(last))
    observe.equal(every_3600_s=(hourly, (False, 3000.0)), every_15_min=(quarter, (False, 300.0)))


def test_crontab_reads_the_app_timezone(observe):
    six_utc = [f.hour for f in first("UTC", hour=6, minute=0)]
    six_sao_paulo = [f.hour for f in first("America/Sao_Paulo", hour=6, minute=0)]
    monday = first("America/Sao_Paulo", hour=8, minute=30, day_of_week="mon")[0]
    first_sao_paulo = first("America/Sao_Paulo", hour=0, minute=0, day_of_month=1)[0]
    first_utc = first("UTC", hour=0, minute=0, day_of_month=1)[0]
    quarter_same = first("UTC", minute="*/15") == first("America/Sao_Paulo", minute="*/15")
    observe(first_of_month_sao_paulo_utc=f"{first_sao_paulo:%m-%d %H:%M}",
            first_of_month_utc=f"{first_utc:%m-%d %H:%M}")
    observe.equal(six_utc_hours=(six_utc, [6, 6]), six_sao_paulo_utc_hours=(six_sao_paulo, [9, 9]),
                  monday_8_30_sao_paulo_utc=(f"{monday:%a %H:%M}", "Mon 11:30"),
                  every_15_min_same_in_both_zones=(quarter_same, True))
    assert first_sao_paulo == datetime(2026, 3, 1, 3, tzinfo=UTC)
    assert first_utc == datetime(2026, 4, 1, tzinfo=UTC)


def test_crontab_converts_times_given_in_utc_to_the_app_timezone(observe):
    # Times handed over in UTC, as a scheduler that stores them in UTC does, not in app.timezone like app.now().
    clock = Clock(datetime(2026, 3, 1, tzinfo=UTC))
    cron = crontab(hour=6, minute=0, app=app_in("America/Sao_Paulo"), nowfun=clock)
    next_run = clock.instant + cron.remaining_estimate(clock.instant)
    observe(six_sao_paulo_next_run_utc=f"{next_run.astimezone(UTC):%m-%d %H:%M}")
    assert next_run == datetime(2026, 3, 1, 9, tzinfo=UTC)


def test_enable_utc_does_not_move_a_crontab_when_timezone_is_set(observe):
    now, last = datetime(2026, 3, 2, 5, tzinfo=UTC), datetime(2026, 3, 1, 12, tzinfo=UTC)
    remaining = {}
    for enable_utc in (True, False):
        app = app_in("America/Sao_Paulo", enable_utc)  # Beat's times, like app.now(), are in app.timezone
        cron = crontab(hour=6, minute=0, app=app, nowfun=Clock(now, app.timezone))
        remaining[enable_utc] = cron.remaining_estimate(last.astimezone(app.timezone))
    hours = {f"enable_utc={key}": value / timedelta(hours=1) for key, value in remaining.items()}
    observe.equal(remaining_hours=(hours, {"enable_utc=True": 4.0, "enable_utc=False": 4.0}))


def test_a_crontab_for_a_date_that_never_comes_is_refused(observe):
    try:
        crontab(minute=0, hour=6, day_of_month=30, month_of_year=2, app=app_in("UTC"))
        outcome = "accepted"
    except ValueError as error:
        outcome = type(error).__name__
    observe.equal(february_30=(outcome, "ValueError"))


def dst_runs(day: datetime, hour: int, minute: int) -> list[str]:
    clock = Clock((day - timedelta(days=1)).astimezone(UTC))
    fired = firings(crontab(hour=hour, minute=minute, app=app_in("America/New_York"), nowfun=clock), clock, count=3)
    return [f"{f.astimezone(NEW_YORK):%m-%d %H:%M %Z}" for f in fired]


def test_daylight_saving_nonexistent_hour_runs_once_late_repeated_hour_once(observe):
    spring, fall = datetime(2026, 3, 8, tzinfo=NEW_YORK), datetime(2026, 11, 1, tzinfo=NEW_YORK)
    nonexistent, repeated, six = dst_runs(spring, 2, 30), dst_runs(fall, 1, 30), dst_runs(spring, 6, 0)
    observe(spring_2_30=nonexistent, spring_6_00=six)
    observe.equal(fall_1_30=(repeated, ["10-31 01:30 EDT", "11-01 01:30 EDT", "11-02 01:30 EST"]))
    assert nonexistent[1] == "03-08 03:30 EDT"
    assert six[1] == "03-08 06:00 EDT"
    counts = []
    for day in (spring, fall):
        clock = Clock(day.astimezone(UTC) - timedelta(minutes=1))
        counts.append(len(night_runs(crontab(minute="0,30", hour="0-3", app=app_in("America/New_York"),
                                             nowfun=clock), clock, "America/New_York", day)))
    observe.equal(runs_every_30_min_0_to_3=({"spring": counts[0], "fall": counts[1]}, {"spring": 6, "fall": 8}))


def test_fall_back_skips_the_repeated_hour_of_hourly_and_sub_hourly_crontabs(observe):
    spring, fall = datetime(2026, 3, 8, tzinfo=NEW_YORK), datetime(2026, 11, 1, tzinfo=NEW_YORK)
    gaps, hourly = {}, {}
    for night, day in (("spring", spring), ("fall", fall)):
        for label, fields in (("every_30_min_0_to_3", dict(minute="0,30", hour="0-3")), ("hourly", dict(minute=0))):
            clock = Clock(day.astimezone(UTC) - timedelta(minutes=1))
            fired = night_firings(crontab(app=app_in("America/New_York"), nowfun=clock, **fields), clock,
                                  "America/New_York", day, until_hour=4)
            gaps[f"{night}_{label}"] = longest_gap(fired)
            if label == "hourly":
                hourly[night] = [f"{f.astimezone(NEW_YORK):%H:%M %Z}" for f in fired]
    # the fall's hourly crontab has no 01:00 EST
    observe.equal(longest_gap_minutes=(gaps, {"spring_every_30_min_0_to_3": 30, "spring_hourly": 60,
                                              "fall_every_30_min_0_to_3": 90, "fall_hourly": 120}),
                  hourly_runs_0_to_4=(hourly, {"spring": ["00:00 EST", "01:00 EST", "03:00 EDT"],
                                               "fall": ["00:00 EDT", "01:00 EDT", "02:00 EST", "03:00 EST"]}))


def test_a_one_day_timedelta_keeps_24_hours_across_daylight_saving(observe):
    clock = Clock(datetime(2026, 3, 7, 6, tzinfo=NEW_YORK).astimezone(UTC))  # the entry starts at 6:00 local
    fired = firings(schedule(timedelta(days=1), app=app_in("America/New_York"), nowfun=clock), clock, limit_days=3)
    runs = [f"{f.astimezone(NEW_YORK):%m-%d %H:%M %Z}" for f in fired]
    observe.equal(every_day_from_6_00=(runs, ["03-08 07:00 EDT", "03-09 07:00 EDT"]))


def test_redbeat_default_lock_is_five_max_intervals(observe):
    defaults = RedBeatScheduler(Celery("defaults", set_as_current=False), lazy=True)
    observe.equal(max_interval=(defaults.max_interval, 300), lock_timeout=(defaults.lock_timeout, 1500))


def test_beat_marks_the_messages_it_sends(observe):
    app = Celery("l05-header", broker="memory://", set_as_current=False)
    sent = []

    def keep(headers=None, **_):
        sent.append(dict(headers))

    before_task_publish.connect(keep, weak=False)
    try:
        scheduler = Scheduler(app, lazy=True)
        scheduler.apply_async(scheduler.Entry(name="tick", task="l05.tick", schedule=1.0, app=app))
        app.send_task("l05.tick")  # the same task, sent by hand
    finally:
        before_task_publish.disconnect(keep)
        app.close()
    by_beat, by_hand = (headers.get("celery_beat_task") for headers in sent)
    observe.equal(celery_beat_task=({"beat": by_beat, "by_hand": by_hand}, {"beat": True, "by_hand": None}))
