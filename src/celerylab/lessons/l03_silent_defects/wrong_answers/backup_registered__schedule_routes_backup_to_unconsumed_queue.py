"""Registers the backup correctly but gives its schedule entry `"options": {"queue": "maintenance"}` (a "dedicated queue" from the docs) that no worker consumes: sent by name with its args the backup succeeds, but Beat sends it with the entry's options, to a queue nobody reads, and the hourly backup never runs. Violates: "4. each of them, sent by name with the schedule's arguments and options (as Beat sends it), ends in `SUCCESS`". Blind review."""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails", f"{SHOP}.scheduled"])
app.autodiscover_tasks([SHOP])
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",),
                         "options": {"queue": "maintenance", "expires": 3000}},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}
