"""Keeps the app in UTC and gives the São Paulo crontabs a nowfun that returns São Paulo time; Celery 5.7 converts now to the app's zone before matching the fields, so they fire at 8:30 and 6:00 UTC. Violates: "`weekly-summary`: Mondays 11:30 UTC (8:30 in São Paulo), once a week;". Blind review.

The older per-entry time-zone recipe: on Celery 5.5/5.6 the fields were
matched in the zone the instants came in; on 5.7 crontab.tz is app.timezone
and the nowfun's zone is ignored. cleanup stays right.

Blind review.
"""
from datetime import datetime
from zoneinfo import ZoneInfo

from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

SAO_PAULO = ZoneInfo("America/Sao_Paulo")


def now_in_sao_paulo() -> datetime:
    return datetime.now(SAO_PAULO)


app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary",
                       "schedule": crontab(hour=8, minute=30, day_of_week="mon", nowfun=now_in_sao_paulo)},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0, nowfun=now_in_sao_paulo)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15", nowfun=now_in_sao_paulo),
                   "args": ("main_supplier",)},
}
