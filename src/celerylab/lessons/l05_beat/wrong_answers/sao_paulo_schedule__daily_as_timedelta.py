"""Writes the daily report as an interval (`timedelta(days=1)`) which counts elapsed time from the last run, not the wall clock, so it fires at whatever hour Beat started. Violates: "`daily-report`: every day at 09:00 UTC (6:00 in São Paulo), at any time of year;". Blind review."""
from datetime import timedelta

from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=11, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": timedelta(days=1)},
    "stock-sync": {"task": "stock.sync", "schedule": timedelta(minutes=15), "args": ("main_supplier",)},
}
