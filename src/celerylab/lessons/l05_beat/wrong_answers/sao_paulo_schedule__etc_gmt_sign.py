"""Uses the zone "Etc/GMT-3" for "UTC-3", but the POSIX Etc zones have the sign inverted (Etc/GMT-3 is UTC+3), so 8:30 "local" fires at 05:30 UTC and the cleanup, rewritten as 00:00 local, at 21:00 UTC. Violates: "`weekly-summary`: Mondays 11:30 UTC (8:30 in São Paulo), once a week;". Blind review.

A fixed offset to be safe from daylight saving, with the classic sign trap.

Blind review.
"""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

app.conf.timezone = "Etc/GMT-3"  # UTC-3, no daylight saving
app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=0, minute=0)},  # 03:00 UTC
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=8, minute=30, day_of_week="mon")},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=6, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
