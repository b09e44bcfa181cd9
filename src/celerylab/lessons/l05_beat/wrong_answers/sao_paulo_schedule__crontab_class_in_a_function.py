"""Right times, but the zone-aware crontab is a class made inside a function: Beat cannot pickle it into its schedule file. Violates: "each entry publishes the task the given module assigns it, and the schedule can be stored in Beat's schedule file (which keeps it with pickle);" Blind review.
"""
from zoneinfo import ZoneInfo
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app


def in_zone(zone, **fields):
    class zoned(crontab):
        @property
        def tz(self):
            return ZoneInfo(zone)
    return zoned(**fields)


app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": in_zone("America/Sao_Paulo", hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": in_zone("America/Sao_Paulo", hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": in_zone("America/Sao_Paulo", minute="*/15"), "args": ("main_supplier",)},
}
