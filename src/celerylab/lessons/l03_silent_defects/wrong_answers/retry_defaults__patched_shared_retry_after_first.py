"""Besides the right task class, it patches celery's shared Task.retry(): from its second retry on, a task of another app that declares nothing waits 60 s, not 180. Violates: "a task of another Celery app, in the worker's process, keeps Celery's defaults (3 and 180 s), in its attributes and when it retries (the wait, no fourth retry)". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


_retry = Task.retry


def _retry_60(self, args=None, kwargs=None, exc=None, throw=True, eta=None, countdown=None, max_retries=None, **options):
    if countdown is None and eta is None and self.request.retries >= 1 and self.default_retry_delay == 180 and "default_retry_delay" not in vars(type(self)):
        countdown = 60
    return _retry(self, args=args, kwargs=kwargs, exc=exc, throw=throw, eta=eta, countdown=countdown,
                  max_retries=max_retries, **options)


Task.retry = _retry_60


class DefaultsTask(Task):
    max_retries = 3
    default_retry_delay = 60


app = Celery("ex_retries", task_cls=DefaultsTask)
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
