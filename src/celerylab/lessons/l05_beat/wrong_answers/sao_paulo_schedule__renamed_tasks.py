"""Right times, but the entries publish tasks nobody registered ("ops.clean_up", "email.weekly_summary"): every fire is an unknown task. Violates: "each entry publishes the task the given module assigns it, and the schedule can be stored in Beat's schedule file (which keeps it with pickle);" Blind review.
"""
from zoneinfo import ZoneInfo
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app


class sp_crontab(crontab):
    @property
    def tz(self):
        return ZoneInfo("America/Sao_Paulo")


app.conf.beat_schedule = {
    "cleanup": {"task": "ops.clean_up", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.weekly_summary", "schedule": sp_crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.daily", "schedule": sp_crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.synchronise", "schedule": sp_crontab(minute="*/15"), "args": ("main_supplier",)},
}
