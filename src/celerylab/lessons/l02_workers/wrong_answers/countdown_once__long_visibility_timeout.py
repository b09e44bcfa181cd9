"""Keeps the countdown safe with a one-hour visibility timeout: the killed task waits an hour to come back. Violates: requirement 4, "runs again within 8 s of the kill"."""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 3600, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
