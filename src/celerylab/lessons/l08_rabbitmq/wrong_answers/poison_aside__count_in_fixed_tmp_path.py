"""Counts each message's starts in a file under a hard-coded /tmp path (not the machine's TMPDIR) and sets it aside on the 4th: two machines count separately and run it up to 6 times.

Violates: "as on two machines: each with a temporary folder of its own (`TMPDIR`)"

Blind review.
"""
import os

from celerylab.lessons.l08_rabbitmq import tasks
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True

COUNTS = "/tmp/ex_poison_counts"  # shared by every worker process
LIMIT = 3


def _guarded(task):
    run = task.run

    def guarded(*args, **kwargs):
        os.makedirs(COUNTS, exist_ok=True)
        path = os.path.join(COUNTS, task.request.id)
        with open(path, "a") as starts:
            starts.write("x")
        if os.path.getsize(path) > LIMIT:  # 3 starts already: set it aside
            app.send_task(task.name, args, kwargs, task_id=task.request.id,
                          exchange="work.poison", routing_key="work.poison")
            return None
        return run(*args, **kwargs)

    type(task).run = staticmethod(guarded)


for _task in list(app.tasks.values()):
    if _task.name.startswith("l08."):
        _guarded(_task)
