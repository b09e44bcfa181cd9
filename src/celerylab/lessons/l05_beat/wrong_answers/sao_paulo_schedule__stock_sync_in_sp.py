"""Reads every entry but cleanup on São Paulo's clock, stock-sync included: on each night São Paulo's clocks went back (2016 to 2019) the repeated hour's quarter-hours never run, 75 real minutes without a sync. Violates: "4. `stock-sync`: every 15 minutes, every day, with `args` `("main_supplier",)`:". Blind review.
"""
from zoneinfo import ZoneInfo

from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.timezone = "America/Sao_Paulo"


class utc_crontab(crontab):
    @property
    def tz(self):
        return ZoneInfo("UTC")


app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": utc_crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
