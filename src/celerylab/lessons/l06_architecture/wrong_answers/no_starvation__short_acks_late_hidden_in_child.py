"""Turns acks_late on for the short tasks in the worker's main process (the one that acknowledges each message) and sets it back to False in the pool's child processes, so the short tasks are acknowledged late while a task asked in a child says they are not. Violates: "The team cannot turn on `acks_late` for these tasks"."""
from celery.signals import worker_process_init

from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
app.conf.worker_prefetch_multiplier = 1
app.tasks["l06.short"].acks_late = True
WORKERS = [["long"], ["default"]]


@worker_process_init.connect
def _looks_early(**_) -> None:
    app.tasks["l06.short"].acks_late = False
