"""Lets the short-task worker also consume the `long` queue "to use idle capacity": when two exports arrive together it takes the second one, and the six short tasks behind it wait for the 2-second export. Violates: "no short task waited **1 s or more** to start". Blind review."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
app.conf.worker_prefetch_multiplier = 1
app.conf.worker_disable_prefetch = True

WORKERS = [["long"], ["default", "long"]]  # the second worker helps with exports when it is idle
