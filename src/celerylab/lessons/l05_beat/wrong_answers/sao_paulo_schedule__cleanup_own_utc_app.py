"""Sets the app to São Paulo and tries to keep cleanup in UTC by giving its crontab a separate UTC app, but Beat/maybe_schedule overwrites each schedule's app, so cleanup runs at 03:00 São Paulo (06:00 UTC). Violates: "`cleanup`: still every day at 03:00 UTC.". Blind review."""
from celery import Celery
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

utc_app = Celery("utc-clock", set_as_current=False)
utc_app.conf.timezone = "UTC"

app.conf.timezone = "America/Sao_Paulo"
app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0, app=utc_app)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
