"""Three edges of a crontab in São Paulo: instants handed over in UTC, `enable_utc`, and a day that never comes."""
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone

from celery.schedules import crontab

from celerylab.lessons.l05_beat.clock import Clock, app_in

UTC = timezone.utc


@dataclass
class CrontabEdges:
    six_from_utc: datetime          # "every day at 6" in São Paulo, next run asked at 00:00 UTC with UTC instants
    hours_to_six: dict[str, float]  # "enable_utc=True"/"False" -> hours from 05:00 UTC, March 2nd, to the next 6:00
    february_30: str                # "accepted", or the name of the error a crontab for February 30th raises


def crontab_edges(zone: str = "America/Sao_Paulo") -> CrontabEdges:
    clock = Clock(datetime(2026, 3, 1, tzinfo=UTC))  # in UTC, as a scheduler that stores UTC hands them over
    six = crontab(hour=6, minute=0, app=app_in(zone), nowfun=clock)
    six_from_utc = clock.instant + six.remaining_estimate(clock.instant)

    now, last = datetime(2026, 3, 2, 5, tzinfo=UTC), datetime(2026, 3, 1, 12, tzinfo=UTC)
    hours = {}
    for enable_utc in (True, False):
        app = app_in(zone, enable_utc)  # Beat's instants, like app.now(), are in app.timezone
        cron = crontab(hour=6, minute=0, app=app, nowfun=Clock(now, app.timezone))
        hours[f"enable_utc={enable_utc}"] = cron.remaining_estimate(last.astimezone(app.timezone)) / timedelta(hours=1)

    try:
        crontab(minute=0, hour=6, day_of_month=30, month_of_year=2, app=app_in("UTC"))
        february_30 = "accepted"
    except ValueError as error:
        february_30 = type(error).__name__
    return CrontabEdges(six_from_utc, hours, february_30)
