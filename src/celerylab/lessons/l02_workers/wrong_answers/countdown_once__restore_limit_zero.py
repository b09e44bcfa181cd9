"""Adds unacked_restore_limit=0 meant as "no limit" to an otherwise sound choice: kombu asks Redis for LIMIT 0 0, every sweep gives back nothing and the killed task never comes back. Violates: "a 0.5 s task whose worker gets SIGKILL mid-run runs again within 8 s of the kill, on the other worker, which keeps running". Blind review."""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 6, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1, "unacked_restore_limit": 0}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
