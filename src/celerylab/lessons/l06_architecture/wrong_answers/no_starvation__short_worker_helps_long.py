"""Gives the exports their own queue but has the short-task worker also consume it to "help with the backlog", so when two exports arrive together each worker takes one and the short tasks wait. Violates: "At the peak **two exports arrive together** and, right after them, several short tasks.". Blind review.

Right with one export at a time (measured with a single long task), wrong at the stated peak:
both -c 1 processes run a 2 s export and no process is left for the short tasks.
"""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
app.conf.worker_disable_prefetch = True
WORKERS = [["long"], ["default", "long"]]
