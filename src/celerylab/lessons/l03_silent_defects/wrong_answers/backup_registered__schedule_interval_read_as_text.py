"""Registers the backup correctly but reads the backup's interval from an environment variable and leaves it as text ("3600"): the worker loads a beat_schedule that names both tasks, and each task sent by name succeeds, but Beat cannot build an entry from a string (celery.schedules.maybe_schedule fails with 'str' object has no attribute 'app') and sends nothing at all. Violates: "1. the `beat_schedule` the worker loads still schedules `data.backup_db` and `data.cleanup`". Blind review."""
import os

from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails", f"{SHOP}.scheduled"])
app.autodiscover_tasks([SHOP])
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": os.environ.get("BACKUP_EVERY", "3600"),
                         "args": ("school",)},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}
