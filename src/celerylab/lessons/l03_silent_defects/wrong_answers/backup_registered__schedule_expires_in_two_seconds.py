"""Gives both schedule entries options={"expires": 2}: whenever the worker is busy for 2 s when Beat sends the hourly backup, it is revoked and never runs. Violates: "the `beat_schedule` the worker loads still schedules `data.backup_db` and `data.cleanup` as the stub does: same intervals, same arguments and no option added". Blind review."""
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails", f"{SHOP}.scheduled"])
app.autodiscover_tasks([SHOP])
app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "data.backup_db", "schedule": 3600, "args": ("school",),
                         "options": {"expires": 2}},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400, "options": {"expires": 2}},
}
