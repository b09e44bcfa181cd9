"""Visibility timeout of exactly 4 s = countdown 3 s + run 1 s: a sweep just before the ack hands back a copy, so it runs twice part of the time. Violates: "a 1 s reminder sent with `countdown=3` runs **exactly once** while a second worker joins 1.5 s after it was sent (a deploy), watched for 5 s;" Blind review.
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
