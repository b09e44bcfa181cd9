"""Gives the São Paulo entries a crontab bound to a second Celery app in America/Sao_Paulo, but Beat (maybe_schedule) rebinds every entry's schedule to the real app, in UTC, so they fire at 08:30 and 06:00 UTC. Violates: "`weekly-summary`: Mondays 11:30 UTC (8:30 in São Paulo), once a week". Blind review."""
from celery import Celery
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

sao_paulo = Celery("sao-paulo-clock", set_as_current=False)
sao_paulo.conf.timezone = "America/Sao_Paulo"  # only these entries read São Paulo's clock; cleanup stays in UTC

app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary",
                       "schedule": crontab(hour=8, minute=30, day_of_week="mon", app=sao_paulo)},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0, app=sao_paulo)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15", app=sao_paulo), "args": ("main_supplier",)},
}
