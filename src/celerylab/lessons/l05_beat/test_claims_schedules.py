"""Schedules and time zones as lesson 05 states them, computed by Celery at fixed instants (no process)."""
from __future__ import annotations

from datetime import datetime, timezone

from celerylab.lessons.l05_beat.clock import longest_gap, wall
from celerylab.lessons.l05_beat.experiments.beat_header import beat_header
from celerylab.lessons.l05_beat.experiments.crontab_edges import crontab_edges
from celerylab.lessons.l05_beat.experiments.crontab_zones import crontab_zones
from celerylab.lessons.l05_beat.experiments.daily_timedelta import daily_timedelta
from celerylab.lessons.l05_beat.experiments.dst_nights import dst_nights
from celerylab.lessons.l05_beat.experiments.interval_due import interval_due
from celerylab.lessons.l05_beat.experiments.lock_defaults import lock_defaults

UTC = timezone.utc
NEW_YORK = "America/New_York"


def test_intervals_count_elapsed_time(observe):
    seen = interval_due(minutes_after=10)
    observe.equal(every_3600_s=(tuple(seen.answers["3600.0"]), (False, 3000.0)),
                  every_15_min=(tuple(seen.answers["0:15:00"]), (False, 300.0)))


def test_crontab_reads_the_app_timezone(observe):
    first = {(row.crontab, row.timezone): row.instants for row in crontab_zones()}
    six_utc = [f.hour for f in first["6:00", "UTC"]]
    six_sao_paulo = [f.hour for f in first["6:00", "America/Sao_Paulo"]]
    monday = first["mon 8:30", "America/Sao_Paulo"][0]
    first_sao_paulo, first_utc = first["day 1, 0:00", "America/Sao_Paulo"][0], first["day 1, 0:00", "UTC"][0]
    quarter_same = first["*/15", "UTC"] == first["*/15", "America/Sao_Paulo"]
    observe(first_of_month_sao_paulo_utc=f"{first_sao_paulo:%m-%d %H:%M}",
            first_of_month_utc=f"{first_utc:%m-%d %H:%M}")
    observe.equal(six_utc_hours=(six_utc, [6, 6]), six_sao_paulo_utc_hours=(six_sao_paulo, [9, 9]),
                  monday_8_30_sao_paulo_utc=(f"{monday:%a %H:%M}", "Mon 11:30"),
                  every_15_min_same_in_both_zones=(quarter_same, True))
    assert first_sao_paulo == datetime(2026, 3, 1, 3, tzinfo=UTC)
    assert first_utc == datetime(2026, 4, 1, tzinfo=UTC)


def test_crontab_converts_times_given_in_utc_to_the_app_timezone(observe):
    # Times handed over in UTC, as a scheduler that stores them in UTC does, not in app.timezone like app.now().
    next_run = crontab_edges().six_from_utc
    observe(six_sao_paulo_next_run_utc=f"{next_run.astimezone(UTC):%m-%d %H:%M}")
    assert next_run == datetime(2026, 3, 1, 9, tzinfo=UTC)


def test_enable_utc_does_not_move_a_crontab_when_timezone_is_set(observe):
    observe.equal(remaining_hours=(crontab_edges().hours_to_six, {"enable_utc=True": 4.0, "enable_utc=False": 4.0}))


def test_a_crontab_for_a_date_that_never_comes_is_refused(observe):
    observe.equal(february_30=(crontab_edges().february_30, "ValueError"))


def test_daylight_saving_nonexistent_hour_runs_once_late_repeated_hour_once(observe):
    spring, fall = dst_nights()
    nonexistent, six = wall(spring.daily["2:30"], NEW_YORK, "%m-%d %H:%M %Z"), wall(spring.daily["6:00"], NEW_YORK,
                                                                                     "%m-%d %H:%M %Z")
    repeated = wall(fall.daily["1:30"], NEW_YORK, "%m-%d %H:%M %Z")
    observe(spring_2_30=nonexistent, spring_6_00=six)
    observe.equal(fall_1_30=(repeated, ["10-31 01:30 EDT", "11-01 01:30 EDT", "11-02 01:30 EST"]))
    assert nonexistent[1] == "03-08 03:30 EDT"
    assert six[1] == "03-08 06:00 EDT"
    counts = {"spring": len(spring.night["0,30 × 0-3"]), "fall": len(fall.night["0,30 × 0-3"])}
    observe.equal(runs_every_30_min_0_to_3=(counts, {"spring": 6, "fall": 8}))


def test_fall_back_skips_the_repeated_hour_of_hourly_and_sub_hourly_crontabs(observe):
    nights = dict(zip(("spring", "fall"), dst_nights(until_hour=4)))
    gaps = {f"{night}_{label}": longest_gap(seen.night[crontab]) for night, seen in nights.items()
            for label, crontab in (("every_30_min_0_to_3", "0,30 × 0-3"), ("hourly", "0 × *"))}
    hourly = {night: wall(seen.night["0 × *"], NEW_YORK) for night, seen in nights.items()}
    # the fall's hourly crontab has no 01:00 EST
    observe.equal(longest_gap_minutes=(gaps, {"spring_every_30_min_0_to_3": 30, "spring_hourly": 60,
                                              "fall_every_30_min_0_to_3": 90, "fall_hourly": 120}),
                  hourly_runs_0_to_4=(hourly, {"spring": ["00:00 EST", "01:00 EST", "03:00 EDT"],
                                               "fall": ["00:00 EDT", "01:00 EDT", "02:00 EST", "03:00 EST"]}))


def test_a_one_day_timedelta_keeps_24_hours_across_daylight_saving(observe):
    runs = wall(daily_timedelta().runs, NEW_YORK, "%m-%d %H:%M %Z")  # the entry started at 6:00 local on 03-07
    observe.equal(every_day_from_6_00=(runs, ["03-08 07:00 EDT", "03-09 07:00 EDT"]))


def test_redbeat_default_lock_is_five_max_intervals(observe):
    defaults = lock_defaults()
    observe.equal(max_interval=(defaults.max_interval, 300), lock_timeout=(defaults.lock_timeout, 1500))


def test_beat_marks_the_messages_it_sends(observe):
    seen = beat_header()
    observe.equal(celery_beat_task=({"beat": seen.by_beat, "by_hand": seen.by_hand}, {"beat": True, "by_hand": None}))
