"""Points the schedule at a task that does register (emails.welcome-style alias "shop.backup") instead of data.backup_db: the entry no longer schedules data.backup_db. Violates: "1. the `beat_schedule` the worker loads still schedules `data.backup_db` and `data.cleanup`;" Blind review.
"""
from celerylab.lessons.l03_silent_defects.shop.scheduled import backup_db as _shop_backup
from celerylab.stack.appconfig import create_app

SHOP = "celerylab.lessons.l03_silent_defects.shop"

app = create_app("ex_beat", include=[f"{SHOP}.emails"])
app.autodiscover_tasks([SHOP])


@app.task(name="shop.backup")
def backup(database: str) -> dict:
    return _shop_backup.run(database)


app.conf.beat_schedule = {
    "backup-db-hourly": {"task": "shop.backup", "schedule": 3600, "args": ("school",)},
    "cleanup-daily": {"task": "data.cleanup", "schedule": 86400},
}
