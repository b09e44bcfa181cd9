"""Rules on the Beat schedule: crontabs read in UTC by default, times daylight saving skips or repeats, expiry, periods."""
from __future__ import annotations

from datetime import date, datetime, timedelta, timezone

from celery.schedules import crontab, schedule

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.i18n import t


def entries(view):
    return [(entry, spec) for entry, spec in sorted((view.conf.beat_schedule or {}).items()) if isinstance(spec, dict)]


def crontabs(view):
    return [(entry, spec) for entry, spec in entries(view) if isinstance(spec.get("schedule"), crontab)]


@rule("CL601", "crontab-in-utc-by-default", "medium", "practice")
def crontab_in_utc_by_default(view):
    found = [entry for entry, _ in crontabs(view)]
    if found and not view.conf.timezone:
        yield Hit("timezone", {"count": len(found), "entries": ", ".join(found)})


def transitions(zone, start: date, days: int = 366):
    """(day, wall-clock start, wall-clock end, kind) of each offset change in `zone`: "gap" skipped, "repeat" twice."""
    found = []
    instant = datetime(start.year, start.month, start.day, tzinfo=timezone.utc)
    step = timedelta(hours=1)
    previous = instant.astimezone(zone).utcoffset()
    for _ in range(days * 24):
        instant += step
        offset = instant.astimezone(zone).utcoffset()
        if offset != previous:
            before, after = instant + previous, instant + offset  # the wall clock just before / after the change
            kind = "gap" if offset > previous else "repeat"
            low, high = sorted((before.replace(tzinfo=None), after.replace(tzinfo=None)))
            found.append((after.date(), low, high, kind))
            previous = offset
    return found


def celery_weekday(day: date) -> int:
    return day.isoweekday() % 7  # crontab's day_of_week: 0 is Sunday


def fires_every_hour(cron: crontab) -> bool:
    """An entry that runs in every hour of the day (every 5 or 30 minutes): a skipped or repeated hour only moves
    one of many runs, which is no fixed local time to lose or double."""
    return len(cron.hour) == 24


def fires_between(cron: crontab, day: date, low: datetime, high: datetime) -> list[str]:
    if fires_every_hour(cron):
        return []
    if day.month not in cron.month_of_year or day.day not in cron.day_of_month \
            or celery_weekday(day) not in cron.day_of_week:
        return []
    times = []
    for hour in sorted(cron.hour):
        for minute in sorted(cron.minute):
            wall = datetime(day.year, day.month, day.day, hour, minute)
            if low <= wall < high:
                times.append(f"{hour:02d}:{minute:02d}")
    return times


@rule("CL602", "crontab-in-dst-window", "medium", "defect")
def crontab_in_dst_window(view):
    entries_ = crontabs(view)
    zone = view.app.timezone
    changes = transitions(zone, date.today()) if entries_ else []
    for entry, spec in entries_:
        for day, low, high, kind in changes:
            times = fires_between(spec["schedule"], day, low, high)
            if times:
                yield Hit(entry, {"entry": entry, "times": ", ".join(times), "zone": str(zone),
                                  "when": t(f"audit.CL602.{kind}", day=day.isoformat())})
                break


@rule("CL603", "beat-entry-no-expires", "low", "practice")
def beat_entry_no_expires(view):
    for entry, spec in entries(view):
        if "expires" not in (spec.get("options") or {}):
            yield Hit(entry, {"entry": entry})


def shortest_period(value) -> float | None:
    """Seconds between two runs at the closest: an interval's own, a crontab's when only hours and minutes vary."""
    if isinstance(value, (int, float)):
        return float(value)
    if isinstance(value, timedelta):
        return value.total_seconds()
    if isinstance(value, crontab):
        if len(value.day_of_week) < 7 or len(value.day_of_month) < 31 or len(value.month_of_year) < 12:
            return None
        marks = sorted(hour * 60 + minute for hour in value.hour for minute in value.minute)
        gaps = [b - a for a, b in zip(marks, marks[1:])] + [marks[0] + 1440 - marks[-1]]
        return 60.0 * min(gaps)
    if isinstance(value, schedule):
        return value.run_every.total_seconds()
    return None


def own_limit(view, task) -> bool:
    """The task's limit is its own (decorator, class), not only the app-wide task_time_limit Celery copied into it."""
    conf = view.conf
    return (task.time_limit not in (None, conf.task_time_limit)
            or task.soft_time_limit not in (None, conf.task_soft_time_limit))


@rule("CL604", "period-not-above-limit", "medium", "defect")
def period_not_above_limit(view):
    """A global cap allows a run that long but says nothing of one entry's run time: from it alone, undecided."""
    for entry, spec in entries(view):
        task = view.app.tasks.get(spec.get("task"))
        period = shortest_period(spec.get("schedule"))
        limit = view.limit(task) if task is not None else None
        if period and limit and period <= limit:
            own = own_limit(view, task)
            yield Hit(entry, {"entry": entry, "period": f"{period:g}", "task": task.name, "limit": f"{limit:g}"},
                      unknown=not own, message="message" if own else "unknown")


@rule("CL605", "daily-interval-drifts", "low", "practice")
def daily_interval_drifts(view):
    daily = [(entry, spec) for entry, spec in entries(view) if not isinstance(spec.get("schedule"), crontab)
             and (shortest_period(spec.get("schedule")) or 0) % 86400 == 0 and shortest_period(spec.get("schedule"))]
    zone = view.app.timezone
    if daily and transitions(zone, date.today()):
        for entry, spec in daily:
            yield Hit(entry, {"entry": entry, "days": f"{shortest_period(spec['schedule']) / 86400:g}",
                              "zone": str(zone)})
