"""Sets visibility_timeout to exactly countdown + run time (4 s), so the reminder's acknowledgement at ~4 s races a sweep that finds it older than 4 s, and now and then a copy runs again inside the 5 s window. Violates: "a 1 s reminder sent with `countdown=3` runs **exactly once**, and its message reaches a worker only once (no copy, not even one the task drops), while a second worker joins 1.5 s after it was sent (a deploy), watched for 5 s;" Blind review.

Tuned to the statement's 3 s + 1 s with no margin: most runs pass (the ack usually wins by
milliseconds); a loaded machine or a slightly slower run duplicates.
"""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 4, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
