"""Keeps UTC and converts the office hours by hand, but only the weekly summary: the daily report stays at 6:00 UTC (3:00 in São Paulo). Violates: "daily-report: every day at 09:00 UTC (6:00 in São Paulo)"."""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=11, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
