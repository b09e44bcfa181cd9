"""Uses day_of_week=0 for Monday (Python's weekday() numbering), but in crontab 0 is Sunday, so the weekly summary goes out on Sundays at 11:30 UTC. Violates: "`weekly-summary`: Mondays 11:30 UTC (8:30 in São Paulo), once a week". Blind review."""
from celery.schedules import crontab
from celerylab.lessons.l05_beat.tasks import app

MONDAY = 0  # datetime.weekday(): Monday == 0
app.conf.beat_schedule = {
    "cleanup": {"task": "ops.cleanup", "schedule": crontab(hour=3, minute=0)},
    "weekly-summary": {"task": "email.send_weekly_summary", "schedule": crontab(hour=11, minute=30, day_of_week=MONDAY)},
    "daily-report": {"task": "report.build_daily", "schedule": crontab(hour=9, minute=0)},
    "stock-sync": {"task": "stock.sync", "schedule": crontab(minute="*/15"), "args": ("main_supplier",)},
}
