"""Visibility timeout 6 s, sweep 0.5 s, but unacked_mutex_expire=3600: if the SIGKILL lands while the killed worker is inside a sweep (holding kombu's unacked mutex), no worker can sweep for an hour and the task does not come back. Violates: "a 0.5 s task whose worker gets SIGKILL mid-run runs again within 8 s of the kill, on the other worker, which keeps running — wherever in the sweep's cycle the kill lands (even in the middle of one of the killed worker's sweeps, which leaves its `unacked_mutex` held: section 2)". Blind review.
"""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 6, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1, "unacked_mutex_expire": 3600}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
