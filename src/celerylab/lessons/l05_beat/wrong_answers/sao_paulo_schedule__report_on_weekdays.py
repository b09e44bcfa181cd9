"""Builds the daily report on business days only (mon-fri): no report on Saturdays and Sundays. Violates: "daily-report: every day at 09:00 UTC (6:00 in São Paulo), at any time of year"."""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.timezone = "America/Sao_Paulo"
app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=0, minute=0)},  # = 03:00 UTC
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0, day_of_week="mon-fri")},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
