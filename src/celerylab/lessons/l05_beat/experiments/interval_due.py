"""An interval schedule asked `is_due(last_run_at)` on a stopped clock: it counts elapsed time."""
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from celery.schedules import schedstate, schedule

from celerylab.lessons.l05_beat.clock import Clock, app_in

LAST_RUN = datetime(2026, 3, 1, 0, 0, tzinfo=timezone.utc)
SPECS = (3600.0, timedelta(minutes=15))  # a number of seconds and a timedelta, as a beat_schedule entry has them


@dataclass
class IntervalDue:
    now: datetime
    answers: dict[str, schedstate]  # the schedule as written -> (is it time?, seconds until asking again)


def interval_due(minutes_after: float = 10, specs=SPECS) -> IntervalDue:
    clock = Clock(LAST_RUN + timedelta(minutes=minutes_after))  # Celery's "now": minutes after the last run
    app = app_in("UTC")
    answers = {str(spec): schedule(spec, app=app, nowfun=clock).is_due(LAST_RUN) for spec in specs}
    return IntervalDue(clock.instant, answers)
