"""Gives the export worker `default` as a second queue with prefetch 1: at the graded peak it has already reserved the second export, so the shorts go to the other worker, but a short task that arrives while that worker runs one export with nothing reserved is taken by it and waits up to 2 s. Violates: "no short task waited **1 s or more** to start". Blind review."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
app.conf.worker_prefetch_multiplier = 1  # one reserved message per process: "fair"

WORKERS = [["long", "default"], ["default"]]  # the export worker also helps with short work when it can
