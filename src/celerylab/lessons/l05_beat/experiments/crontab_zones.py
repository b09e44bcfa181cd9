"""Each crontab's first firings in a UTC app and in a São Paulo app, from Sunday, March 1st 2026, 00:00 UTC."""
from dataclasses import dataclass
from datetime import datetime, timezone

from celery.schedules import crontab

from celerylab.lessons.l05_beat.clock import Clock, app_in, firings

START = datetime(2026, 3, 1, 0, 0, tzinfo=timezone.utc)
CRONTABS = {"*/15": dict(minute="*/15"), "6:00": dict(hour=6, minute=0),
            "mon 8:30": dict(hour=8, minute=30, day_of_week="mon"),
            "day 1, 0:00": dict(hour=0, minute=0, day_of_month=1)}
ZONES = ("UTC", "America/Sao_Paulo")


@dataclass
class Firings:
    crontab: str
    timezone: str               # the app's `timezone` setting
    instants: list[datetime]    # its first runs, in UTC


def crontab_zones(crontabs=CRONTABS, zones=ZONES, count: int = 2) -> list[Firings]:
    found = []
    for label, fields in crontabs.items():
        for zone in zones:
            clock = Clock(START)
            cron = crontab(app=app_in(zone), nowfun=clock, **fields)  # cron.tz is the app's timezone
            found.append(Firings(label, zone, firings(cron, clock, count=count, limit_days=70)))
    return found
