"""Writes the daily report as crontab(hour=9) without minute=0, which fires every minute from 09:00 to 09:59 UTC instead of once at 09:00. Violates: "`daily-report`: every day at 09:00 UTC (6:00 in São Paulo), at any time of year". Blind review."""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

# São Paulo is UTC-3 all year (no daylight saving since 2019): convert the office's hours to UTC once
app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=11, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=9)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
