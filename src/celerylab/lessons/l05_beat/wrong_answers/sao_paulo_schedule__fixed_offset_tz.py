"""Gives the office's crontabs a fixed UTC−3 offset instead of the America/Sao_Paulo zone: right today, wrong whenever São Paulo's rules differ from a constant −3 h. Violates: "\"São Paulo time\" is São Paulo's wall clock at **any date**, by the rules of the `America/Sao_Paulo` zone (daylight saving included, in the years it had it), not a fixed −3 h offset." Blind review.
"""
from datetime import timedelta, timezone

from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

BRT = timezone(timedelta(hours=-3), "BRT")


class brt_crontab(crontab):
    """A crontab read in Brasília time (UTC-3)."""

    @property
    def tz(self):
        return BRT


app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": brt_crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": brt_crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
