"""Points autodiscover at related_name="scheduled", replacing the default "tasks": the backup appears and data.cleanup disappears. Violates: "2. every task in `beat_schedule` shows up in `inspect registered`;" Blind review.
"""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails"])
app.autodiscover_tasks([SHOP], related_name="scheduled")
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",)},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}
