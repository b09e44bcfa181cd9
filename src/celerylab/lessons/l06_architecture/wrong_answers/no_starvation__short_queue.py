"""Routes l06.short to a queue of its own ("short", one worker) and leaves the exports on `default` with the other worker, so the short task sent straight to `default` waits behind both exports. Violates: "no short task waited **1 s or more** to start, the one sent straight to the `default` queue included;". Blind review.

Every short task sent where the app's routes name starts at once; the one a producer sends straight to the default
queue (it finishes with SUCCESS all the same) starts only once the default worker has run both exports.
"""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.short": {"queue": "short"}}
app.conf.worker_prefetch_multiplier = 1
WORKERS = [["short"], ["default"]]
