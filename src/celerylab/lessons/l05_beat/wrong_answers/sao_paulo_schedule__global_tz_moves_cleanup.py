"""Sets the whole app to São Paulo time and keeps cleanup at hour=3, so the UTC maintenance window moves to 06:00 UTC. Violates: "`cleanup`: still every day at 03:00 UTC.". Blind review."""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.timezone = "America/Sao_Paulo"
app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
