"""Registers the backup correctly but rewrites the schedule's args as ("school") — a plain string, not a tuple — so Beat sends six one-letter arguments and the backup fails with TypeError. Violates: "each of them, sent by name with the schedule's arguments (as Beat sends it), ends in `SUCCESS` — the backup returning `{'status': 'ok', 'database': 'school'}` (and, sent with another database, that database's name under `'database'`).". Blind review.

Registration (items 1 and 2) is right; the missing trailing comma only shows
when the message built from the schedule reaches the task.

Blind review.
"""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails", f"{SHOP}.scheduled"])
app.autodiscover_tasks([SHOP])
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school")},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}
