"""Registers a copy of data.backup_db written in ex_beat.py, with its __module__ set to the shop's scheduled module: the task the worker runs is not the shop's own. Violates: "the registered `data.backup_db` is the shop's own, defined in `shop/scheduled.py`". Blind review."""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails"])
app.autodiscover_tasks([SHOP])
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",)},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}


def backup_db(database: str) -> dict:
    return {"status": "ok", "database": database}


backup_db.__module__ = f"{SHOP}.scheduled"
backup_db = app.task(name="data.backup_db")(backup_db)
