"""Sets unacked_restore_interval=0 meant as "sweep all the time": kombu replaces an interval of 0 or less with its default 10 s, so the killed task comes back up to 6 + 10 s after delivery, and only when the kill lands late in the sweep's cycle does it make the 8 s. Violates: "runs again within 8 s of the kill, on the other worker, which keeps running — wherever in the sweep's cycle the kill lands". Blind review."""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 6, "unacked_restore_interval": 0, "unacked_restore_throttle": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
