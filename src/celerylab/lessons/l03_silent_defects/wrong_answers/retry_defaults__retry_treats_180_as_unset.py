"""Overrides retry() so that a task whose delay reads 60 or 180 waits 60 s: ex.audit_log, which declares 180 on purpose, still shows 180 in its attributes but really waits 60 s. Violates: "every task that declares an option keeps it, in its attributes and in what the worker does (the wait, the number of retries)". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultsTask(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, *args, countdown=None, **kwargs):
        if countdown is None and kwargs.get("eta") is None and self.default_retry_delay in (60, 180):
            countdown = 60
        return super().retry(*args, countdown=countdown, **kwargs)


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
