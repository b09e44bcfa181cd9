"""Wrong: no acks_late, but a failure handler re-sends any task whose worker process was lost, so an export interrupted midway runs again. Violates: "an export interrupted midway must not run again". Blind review."""
from billiard.exceptions import WorkerLostError
from celery.signals import task_failure

from celerylab.lessons.l06_architecture.tasks import ROUTES, app

app.conf.task_routes = {**ROUTES, "l06.long": {"queue": "long"}}
app.conf.worker_prefetch_multiplier = 1
WORKERS = [["long"], ["default"]]


@task_failure.connect
def _resend_lost(sender=None, task_id=None, exception=None, args=None, kwargs=None, **kw):
    # no acks_late allowed: bring back what a dead process lost
    if isinstance(exception, WorkerLostError) and sender is not None:
        sender.apply_async(args=args, kwargs=kwargs)
