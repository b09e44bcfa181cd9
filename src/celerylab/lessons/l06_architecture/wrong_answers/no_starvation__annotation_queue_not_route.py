"""Moves the exports to their own queue with task_annotations (a task attribute) instead of the app's routes, so a producer that asks the app's routes still sends l06.long to default, where both exports fill both processes. Violates: "The check reads `WORKERS` from the file without running it (write the list out, do not compute it), starts those workers with **your** module, asks your app which queue each task goes to (its routes, as a producer with the same module would), sends two long tasks and, once both have been received by some worker, six short ones, and grades:". Blind review.

Works when the exports are sent with `long.delay()` from the task object; any `send_task("l06.long")`
or a producer that follows task_routes puts them back on default.
"""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = ROUTES
app.conf.task_annotations = {"l06.long": {"queue": "long"}}
app.conf.worker_prefetch_multiplier = 1
WORKERS = [["long"], ["default"]]
