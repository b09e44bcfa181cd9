"""Gives the exports a worker of their own and keeps two on default: three workers. Violates: "WORKERS describes at most two workers" (the budget: two workers of one process each)."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "exports"}}
WORKERS = [["exports"], ["default"], ["default"]]
