"""New York's two daylight-saving nights of 2026 as Celery's crontabs see them: daily jobs, and the night's runs."""
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from celery.schedules import crontab

from celerylab.lessons.l05_beat.clock import Clock, app_in, firings, night_firings

NEW_YORK = ZoneInfo("America/New_York")
CHANGES = (datetime(2026, 3, 8, tzinfo=NEW_YORK), datetime(2026, 11, 1, tzinfo=NEW_YORK))  # 02:00 -> 03:00, 02:00 -> 01:00
DAILY = ((1, 30), (2, 30), (6, 0))
NIGHTLY: dict[str, dict] = {"0,30 × 0-3": dict(minute="0,30", hour="0-3"), "0 × *": dict(minute=0)}


@dataclass
class DstNight:
    day: datetime
    daily: dict[str, list[datetime]]  # "h:mm" -> its first 3 runs from the day before (UTC instants)
    night: dict[str, list[datetime]]  # crontab -> its runs that night, from 00:00 to `until_hour` local time


def dst_nights(days=CHANGES, until_hour: int = 4) -> list[DstNight]:
    new_york, nights = app_in("America/New_York"), []
    for day in days:
        daily, night = {}, {}
        for hour, minute in DAILY:
            clock = Clock((day - timedelta(days=1)).astimezone(timezone.utc))
            cron = crontab(hour=hour, minute=minute, app=new_york, nowfun=clock)
            daily[f"{hour}:{minute:02d}"] = firings(cron, clock, count=3)
        for label, fields in NIGHTLY.items():
            clock = Clock(day.astimezone(timezone.utc) - timedelta(minutes=1))
            cron = crontab(app=new_york, nowfun=clock, **fields)
            night[label] = night_firings(cron, clock, "America/New_York", day, until_hour)
        nights.append(DstNight(day, daily, night))
    return nights
