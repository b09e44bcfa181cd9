"""Includes only the module of the backup: data.cleanup, defined in tasks.py, is no longer registered. Violates: "every task in beat_schedule shows up in inspect registered"."""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails", f"{SHOP}.scheduled"])
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",)},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}
