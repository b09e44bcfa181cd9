"""Section 3’s fix: acks_late with a prefetch of one, both workers on default. Violates: "l06.long and l06.short still have no acks_late on the workers" (an interrupted export must not run again)."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.update(task_acks_late=True, worker_prefetch_multiplier=1)
WORKERS = [["default"], ["default"]]
