"""Gives the exports and the short tasks a queue each and has one worker consume each, so no worker consumes `default` any more: tasks routed by name never starve, but a task sent straight to `default` during the peak never runs. Violates: "a task the check sends straight to the `default` queue during the peak also finishes with `SUCCESS`". Blind review.

Passes a check that sends every task to the queue the app's routes name; the deployment drops the queue every
producer that names no route (or names `default`) still uses.
"""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "exports"}, "l06.short": {"queue": "light"}}
WORKERS = [["exports"], ["light"]]
