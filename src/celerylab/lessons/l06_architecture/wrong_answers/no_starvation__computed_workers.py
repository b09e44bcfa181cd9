"""Builds WORKERS with a comprehension from a queue tuple instead of writing the list out, so the deployment cannot be read from the file without running it. Violates: "The check reads `WORKERS` from the file without running it (write the list out, do not compute it), starts those workers with **your** module, asks your app which queue each task goes to (its routes, as a producer with the same module would), sends two long tasks and, once both have been received by some worker, six short ones, and grades:". Blind review.

The routing itself (longs on their own queue, one worker each) is sound; the description is not a literal.
"""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

QUEUES = ("long", "default")
app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
app.conf.worker_prefetch_multiplier = 1
WORKERS = [[queue] for queue in QUEUES]
