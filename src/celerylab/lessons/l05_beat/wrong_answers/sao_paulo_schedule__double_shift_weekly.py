"""Switches the app to São Paulo time and also adds the 3-hour offset to the weekly summary, so it fires Mondays at 14:30 UTC (11:30 in São Paulo). Violates: "`weekly-summary`: Mondays 11:30 UTC (8:30 in São Paulo), once a week;". Blind review."""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.timezone = "America/Sao_Paulo"
app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=0, minute=0)},  # 03:00 UTC
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=11, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
