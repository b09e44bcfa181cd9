"""Reassigns app.conf.include to the scheduled module only, so the backup registers but the e-mail tasks of shop/emails.py, registered before, are dropped. Violates: "2. every task in `beat_schedule` shows up in `inspect registered`, and the ones the worker already registered (such as `emails.welcome`) stay there: the fix adds, it removes nothing;" Blind review.

Every task in beat_schedule is registered and succeeds; the fix unregisters
the e-mail tasks that worked before (they are not in beat_schedule, so a
check limited to the schedule does not see it).

Blind review.
"""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails"])
app.autodiscover_tasks([SHOP])
app.conf.include = [f"{SHOP}.scheduled"]
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",)},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}
