"""Counts deliveries per task name in the worker's main process (task_received) and re-publishes the message to work.poison on the fourth, so two poison messages share one counter and each is set aside after fewer than 3 starts, and a worker restart resets the count. Violates: "`l08.poison("p1")` starts exactly 3 times;". Blind review.

With a single poison message and no worker restart it starts exactly 3 times and lands in work.poison.
"""
from collections import Counter

from celery.signals import task_received
from celery.worker import state

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True

MAX_STARTS = 3
_deliveries: Counter = Counter()  # task name -> deliveries seen by this worker


@task_received.connect
def _set_poison_aside(request=None, **kwargs):
    _deliveries[request.name] += 1
    if _deliveries[request.name] > MAX_STARTS:
        app.send_task(request.name, request.args, request.kwargs, task_id=request.id,
                      exchange="work.poison", routing_key="work.poison")
        state.revoked.add(request.id)  # the worker acknowledges it and skips it
        _deliveries[request.name] = 0
