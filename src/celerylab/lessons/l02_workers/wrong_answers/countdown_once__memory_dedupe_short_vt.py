"""Keeps a 1 s visibility timeout (fast recovery) and drops duplicate reminders with a module-level set of task ids, so a copy that lands on the second worker, or on another pool process, runs again. Violates: "a 1 s reminder sent with `countdown=3` runs **exactly once**, and its message reaches a worker only once (no copy, not even one the task drops), while a second worker joins 1.5 s after it was sent (a deploy), watched for 5 s;" Blind review.

"Make the task idempotent" done in one process's memory: the copies the sweep gives back are
scheduled by whichever worker/process reserves them; only those in the same child are skipped.
The killed 0.5 s task comes back in ~1.5 s on the other worker (its set never saw it).
"""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 1, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)

STARTED = set()  # task ids this process already ran


@app.task(name="ex.remind", bind=True)
def remind(self, key: str, seconds: float = 0.2) -> str:
    if self.request.id in STARTED:
        return key  # a copy given back by the visibility timeout: already done
    STARTED.add(self.request.id)
    record(key, "start")
    time.sleep(seconds)
    return key
