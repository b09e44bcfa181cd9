"""Keeps the 1 s visibility timeout and hides the copies behind a 1.5 s Redis lock per key: copies still exist and run whenever the lock has expired. Violates: "a 1 s reminder sent with `countdown=3` runs **exactly once**, and its message reaches a worker only once (no copy, not even one the task drops), while a second worker joins 1.5 s after it was sent (a deploy), watched for 5 s;" Blind review.
"""
import os
import time

import redis

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import BROKER_ENV, NAMESPACE_ENV, create_app

TRANSPORT = {"visibility_timeout": 1, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    client = redis.Redis.from_url(os.environ[BROKER_ENV])
    try:
        lock = f"{os.environ.get(NAMESPACE_ENV, '')}ex:remind:lock:{key}"
        if not client.set(lock, "1", nx=True, px=1500):
            return key  # a copy from the sweep: someone is already on it
    finally:
        client.close()
    record(key, "start")
    time.sleep(seconds)
    return key
