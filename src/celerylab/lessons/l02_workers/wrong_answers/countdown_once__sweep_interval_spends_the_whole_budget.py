"""Sweeps every 2 s with a 6 s visibility timeout, so the latest comeback on paper (timeout + one sweep period = 8 s after delivery) uses the whole 8 s budget of the kill case: any time after the sweep (the other worker's BRPOP, prefetch, starting the task on a loaded machine) pushes the rerun past 8 s, depending on where in the sweep's cycle the kill lands. Violates: "runs again within 8 s of the kill, on the other worker, which keeps running — wherever in the sweep's cycle the kill lands". Blind review."""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

# fewer Redis scans: one every 2 s is enough while 6 + 2 <= 8
TRANSPORT = {"visibility_timeout": 6, "unacked_restore_interval": 2, "unacked_restore_throttle": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
