"""Routes the exports to their own queue but lets the exports' worker also consume default with the default prefetch of 4, so it reserves short tasks behind the running export. Violates: "no short task waited **1 s or more** to start;". Blind review.

"Don't waste the export worker when it is idle": with prefetch 4 it reserves the second export and
up to three short ones from default, which wait for the 2 s exports while the other worker is idle.
"""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
WORKERS = [["long", "default"], ["default"]]
