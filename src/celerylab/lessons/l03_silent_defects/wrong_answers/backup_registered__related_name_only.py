"""Replaces the default autodiscovery with related_name="scheduled", so shop/tasks.py is no longer imported and whatever it defines (data.cleanup, if it lives there) stops being registered. Violates: "2. every task in `beat_schedule` shows up in `inspect registered`, and the ones the worker already registered (such as `emails.welcome`) stay there: the fix adds, it removes nothing;" Blind review.

The learner fixes the backup by pointing autodiscover at scheduled.py and
drops the original call: the backup registers, the modules found before by
the default related_name="tasks" silently do not.

Blind review.
"""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails"])
app.autodiscover_tasks([SHOP], related_name="scheduled")
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",)},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}
