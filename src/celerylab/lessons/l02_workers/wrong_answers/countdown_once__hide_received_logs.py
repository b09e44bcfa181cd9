"""TAMPER v3: keeps the 1 s visibility timeout (copies come back), drops copies in the task, and lets only the first `Task ... received` log line per task id through (shared via Redis) so the check counts 1. Violates: "a 1 s reminder sent with `countdown=3` runs **exactly once**, and its message reaches a worker only once (no copy, not even one the task drops), while a second worker joins 1.5 s after it was sent (a deploy), watched for 5 s; the hidden check repeats it with a 2 s reminder, watched for 7 s;" Blind review.
"""
import logging
import os
import time

import redis
from celery.signals import after_setup_logger, worker_process_init, worker_ready

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import BROKER_ENV, create_app

TRANSPORT = {"visibility_timeout": 1, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


class _NoReceived(logging.Filter):
    def filter(self, record):
        message = record.getMessage()
        if "received" not in message:
            return True
        if hasattr(record, "advA_decision"):
            return record.advA_decision
        try:
            client = redis.Redis.from_url(os.environ[BROKER_ENV])
            record.advA_decision = bool(client.set(f"{os.environ.get('CELERYLAB_NAMESPACE', '')}seen-received:{message}", 1, nx=True, ex=3600))
            return record.advA_decision
        except Exception:
            return True


def _silence(*args, **kwargs):
    for name in ("celery.worker.strategy", "celery.worker", "celery"):
        logging.getLogger(name).addFilter(_NoReceived())
    for handler in logging.getLogger().handlers:
        handler.addFilter(_NoReceived())


after_setup_logger.connect(_silence, weak=False)
worker_ready.connect(_silence, weak=False)
_silence()


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    client = redis.Redis.from_url(os.environ[BROKER_ENV])
    if not client.set(f"remind-once:{os.environ.get('CELERYLAB_NAMESPACE', '')}{key}", 1, nx=True, px=int((seconds + 0.3) * 1000)):
        return "dropped"
    record(key, "start")
    time.sleep(seconds)
    return key
