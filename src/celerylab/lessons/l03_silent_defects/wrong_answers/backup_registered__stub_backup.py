"""Defines a stand-in data.backup_db in ex_beat.py that just echoes its argument, so the worker reports SUCCESS for a backup that never backs anything up (the shop's real task stays unregistered). Violates: "3. the registered `data.backup_db` is the shop's own, defined in `shop/scheduled.py` (not a copy written in `ex_beat.py`);" Blind review.

Everything the check lists is satisfied on the wire; the defect is the
silent one of the lesson turned around: the backup "succeeds" and does nothing.

Blind review.
"""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails"])
app.autodiscover_tasks([SHOP])
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",)},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}


@app.task(name="data.backup_db")
def backup_db(database):
    return {"status": "ok", "database": database}
