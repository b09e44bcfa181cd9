"""Counts starts in the stack's Redis keyed by the task's name and arguments, not by message: two messages with the same input share one count, and the second is set aside after fewer than 3 runs.

Violates: "a task that kills its process runs **3 times** and then its message waits in queue `work.poison`"

Blind review.
"""
import json

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True

LIMIT = 3


def _guarded(task):
    run = task.run

    def guarded(*args, **kwargs):
        key = f"ex_poison:{task.name}:{json.dumps([args, kwargs], sort_keys=True)}"
        if app.backend.client.incr(key) > LIMIT:  # this input already killed 3 processes: set it aside
            app.send_task(task.name, args, kwargs, task_id=task.request.id,
                          exchange="work.poison", routing_key="work.poison")
            return None
        return run(*args, **kwargs)

    type(task).run = staticmethod(guarded)


for _task in list(app.tasks.values()):
    if _task.name.startswith("l08."):
        _guarded(_task)
