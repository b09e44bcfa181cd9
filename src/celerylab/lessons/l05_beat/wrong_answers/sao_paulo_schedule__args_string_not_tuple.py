"""Drops the trailing comma: `("main_supplier")` is a string, so stock-sync receives one argument per character. Violates: "`stock-sync`: every 15 minutes, with `args` `("main_supplier",)`:". Blind review."""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.timezone = "America/Sao_Paulo"
app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=0, minute=0)},  # 03:00 UTC
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier")},
}
