"""Defines its own data.backup_db that returns the visible answer: registered and SUCCESS, but the database it was given is ignored. Violates: "(and, sent with another database, that database’s name under database)"."""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails", f"{SHOP}.tasks"])


@app.task(name="data.backup_db")
def backup_db(database: str) -> dict:
    return {"status": "ok", "database": "school"}
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",)},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}
