"""Patches celery.Task.retry for every app in the process so that a retry without countdown of a task whose classes (base classes included) declare no delay waits 60 s; another app's task keeps 180 in its attributes but retries after 60 s. Violates: "a task of another Celery app, in the worker's process, keeps Celery's defaults (3 and 180 s), in its attributes and when it retries"."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


_celery_retry = Task.retry


def _declares_delay(task) -> bool:
    return any("default_retry_delay" in vars(cls) for cls in type(task).__mro__ if cls is not Task)


def _retry(self, *args, countdown=None, eta=None, **kwargs):
    """Celery ignores task_default_retry_delay: apply the 60 s ourselves to what declares no delay."""
    if countdown is None and eta is None and not _declares_delay(self):
        countdown = 60
    return _celery_retry(self, *args, countdown=countdown, eta=eta, **kwargs)


Task.retry = _retry


class DefaultRetries(Task):
    max_retries = 3
    default_retry_delay = 60


app = Celery("ex_retries", task_cls=DefaultRetries)
app.conf.update(env_settings())


@app.task(bind=True, name="ex.send_invoice")
def send_invoice(self, invoice_id):
    try:
        raise ConnectionError("billing API down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)


@app.task(bind=True, name="ex.welcome", default_retry_delay=30)
def welcome(self, user_id):
    try:
        raise ConnectionError("smtp down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)
