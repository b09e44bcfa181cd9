"""CL104: a Beat entry naming a task nothing registers (one letter off)."""
from audit_apps.base import make_app

app = make_app("cl104", beat_schedule={
    "backup": {"task": "data.backup_dbs", "schedule": 3600.0, "options": {"expires": 3000}},
    "ok": {"task": "data.backup_db", "schedule": 3600.0, "options": {"expires": 3000}},
})


@app.task(name="data.backup_db")
def backup_db():
    return 1
