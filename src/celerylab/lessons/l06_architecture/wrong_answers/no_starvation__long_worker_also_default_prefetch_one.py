"""Gives the exports a queue of their own, but their worker also consumes default (multiplier 1): while it runs the second export it reserves a short task of the second wave, which waits behind that export while the other worker is idle. Violates: "no short task waited **1 s or more** to start". Blind review."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
app.conf.worker_prefetch_multiplier = 1
WORKERS = [["long", "default"], ["default"]]
