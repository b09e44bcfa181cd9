"""Gives the exports a queue and a worker of their own, and adds acks_late with a prefetch of one for good measure: an interrupted export would run again. Violates: "l06.long and l06.short still have no acks_late on the workers"."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "exports"}}
app.conf.task_acks_late = True
app.conf.worker_prefetch_multiplier = 1
WORKERS = [["exports"], ["default"]]
