"""Routes the exports to a queue of their own but has one worker consume both queues: its one process runs an export while the short tasks wait. Violates: "no short task waited 1 s or more to start"."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "exports"}}
WORKERS = [["exports", "default"]]
