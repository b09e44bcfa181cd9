"""Converts São Paulo times to UTC by hand (−3 h, frozen): if São Paulo's offset changes (DST back, as until 2019), the office's entries fire an hour off. Violates: "`daily-report`: every day at 6:00 in São Paulo (09:00 UTC today), at any time of year;" — in December 2018 (São Paulo on UTC−2) 6:00 there was 08:00 UTC. Blind review.
"""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    # São Paulo is UTC-3: 8:30 BRT = 11:30 UTC, 6:00 BRT = 09:00 UTC
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=11, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=9, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
