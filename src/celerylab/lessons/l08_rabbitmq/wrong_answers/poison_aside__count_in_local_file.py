"""Counts each message's deliveries in a JSON file of the worker's temporary folder and re-publishes it to work.poison on the fourth: the count lives on one machine, so a second worker with another temporary folder starts the count over. Violates: "a task that kills its process runs **3 times** and then its message waits in queue `work.poison`". Blind review.

The file survives the pool process's death and the worker's restart, unlike a count in memory.
"""
import json
import os
import tempfile

from celery.signals import task_received
from celery.worker import state

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True

MAX_STARTS = 3
COUNTS = os.path.join(tempfile.gettempdir(), "ex_poison_deliveries.json")


@task_received.connect
def _set_poison_aside(request=None, **kwargs):
    try:
        with open(COUNTS, encoding="utf-8") as file:
            counts = json.load(file)
    except (OSError, ValueError):
        counts = {}
    counts[request.id] = counts.get(request.id, 0) + 1
    with open(COUNTS, "w", encoding="utf-8") as file:
        json.dump(counts, file)
    if counts[request.id] > MAX_STARTS:
        app.send_task(request.name, request.args, request.kwargs, task_id=request.id,
                      exchange="work.poison", routing_key="work.poison")
        state.revoked.add(request.id)  # the worker acknowledges it and skips it
