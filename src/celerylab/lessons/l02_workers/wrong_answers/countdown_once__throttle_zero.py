"""Keeps a 7.5 s visibility timeout for a wide margin against copies and sets unacked_restore_throttle=0 meant as "no throttle": kombu scans on every 0.5 s call (a throttle of 0 counts as 1), so the latest comeback is 7.5 + 0.5 s after delivery plus the pick-up, past the 8 s budget whenever the kill lands just after a sweep. Violates: "runs again within 8 s of the kill, on the other worker, which keeps running — wherever in the sweep's cycle the kill lands". Blind review."""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 7.5, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 0}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
