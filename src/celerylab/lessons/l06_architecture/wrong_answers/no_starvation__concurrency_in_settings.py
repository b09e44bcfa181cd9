"""Keeps two WORKERS entries but sets worker_concurrency = 3 in the app, so each worker that does not get -c 1 on its command line runs three processes, going over the budget instead of solving the starvation. Violates: "That is the budget: **two workers of one process each**, not one more". Blind review."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = ROUTES
app.conf.worker_prefetch_multiplier = 1
app.conf.worker_disable_prefetch = True
app.conf.worker_concurrency = 3  # a spare process per worker for the short tasks

WORKERS = [["default"], ["default"]]
