"""Wrong: no acks_late, but task_retry_on_worker_lost makes Celery send again any task whose pool process died, so an export interrupted midway runs again. Violates: "an export interrupted midway must not run again". Blind review."""
from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
app.conf.worker_prefetch_multiplier = 1
app.conf.task_retry_on_worker_lost = True  # not acks_late: a lost export is retried instead
WORKERS = [["long"], ["default"]]
