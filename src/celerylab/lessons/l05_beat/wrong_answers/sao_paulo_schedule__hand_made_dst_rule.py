"""Hand-rolled DST: UTC−2 from November to February in years up to 2018, else UTC−3 (wrong on Oct 2017, Feb 2018's end, 2008's rules...). Violates: ""São Paulo time" is São Paulo's wall clock at **any date**, by the rules of the `America/Sao_Paulo` zone (daylight saving included, in the years it had it), not a fixed −3 h offset." Blind review.
"""
from datetime import timedelta, timezone
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

UTC3, UTC2 = timezone(timedelta(hours=-3)), timezone(timedelta(hours=-2))


class sp_crontab(crontab):
    @property
    def tz(self):
        now = self.now()
        return UTC2 if now.year <= 2018 and now.month in (11, 12, 1, 2) else UTC3


app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": sp_crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": sp_crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": sp_crontab(minute="*/15"), "args": ("main_supplier",)},
}
