"""Adds unacked_restore_limit=1 ("don't flood the queue after a crash") to an otherwise sound choice: each sweep gives back at most one expired message, newest first, so after a SIGKILL of a worker holding several unacknowledged messages (prefetched tasks, reminders in its timer) the killed task waits its turn, half a second per message, and comes back after the 8 s budget; with the single lost task of the check it comes back in time. Violates: "a 0.5 s task whose worker gets SIGKILL mid-run runs again within 8 s of the kill, on the other worker, which keeps running". Blind review."""
import time

from celerylab.lessons.l02_workers.runs import record
from celerylab.stack.appconfig import create_app

TRANSPORT = {"visibility_timeout": 6.5, "unacked_restore_interval": 0.5, "unacked_restore_throttle": 1,
             "unacked_restore_limit": 1}
app = create_app("ex_reminder", task_acks_late=True, broker_transport_options=TRANSPORT)


@app.task(name="ex.remind")
def remind(key: str, seconds: float = 0.2) -> str:
    record(key, "start")
    time.sleep(seconds)
    return key
