"""Drops acks_late for the reminder and uses a long visibility timeout: never duplicated, but a task killed mid-run is lost for good. Violates: "`ex.remind(key, seconds)` runs with `acks_late` on Redis." / "runs again within 8 s of the kill" Blind review.
"""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 30, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind", acks_late=False)
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
