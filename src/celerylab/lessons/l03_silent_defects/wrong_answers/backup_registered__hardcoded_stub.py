"""Registers a stub data.backup_db that returns the example's answer whatever the database: another database still reports 'school'. Violates: "(and, sent with another database, that database's name under `'database'`)" Blind review.
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
def backup_db(*args, **kwargs) -> dict:
    return {"status": "ok", "database": "school"}
