"""Moves the whole app to America/Sao_Paulo and rewrites the UTC cleanup as 00:00 São Paulo: the maintenance window is now tied to São Paulo's offset (and every other schedule of the app changes timezone too). Violates: "`cleanup`: still every day at 03:00 UTC, at any date." — on a date São Paulo kept daylight saving (December 2018), 00:00 São Paulo is 02:00 UTC. Blind review.
"""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.timezone = "America/Sao_Paulo"

app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=0, minute=0)},  # 03:00 UTC
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
