"""Counts each message's deliveries in a JSON file at a fixed path under /tmp and re-publishes it to work.poison on the fourth: another machine has its own /tmp, where the count starts over, so the poison runs more than 3 times. Violates: "a task that kills its process runs **3 times** and then its message waits in queue `work.poison`". Blind review.

A fixed path (not the worker's TMPDIR) looks shared by every worker, and on one machine it is.
"""
import json

from celery.signals import task_received
from celery.worker import state

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True

MAX_STARTS = 3
COUNTS = "/tmp/ex_poison_deliveries.json"  # the same path for every worker


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
