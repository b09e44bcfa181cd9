"""Sets visibility_timeout to 5 s, exactly countdown + run time of the hidden 2 s reminder: its acknowledgement ~5 s after delivery races a sweep that finds it older than 5 s, so whether a copy is made depends on milliseconds. Violates: "the reminder's message is acknowledged **more than 0.25 s before** the visibility timeout runs out (the margin for a loaded worker), counting that it stayed unacknowledged at least the countdown plus the reminder's run time: a visibility timeout at or below countdown + run time + 0.25 s (4.25 s for the 1 s reminder; 5.25 s for the 2 s one) does not pass;" Blind review.
"""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 5, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
