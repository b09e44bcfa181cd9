"""Doubles the wait at each retry for tasks that declare their own delay (the default 60 s stays flat), so ex.welcome waits 30 s, then 60 s, then 120 s. Violates: "ex.welcome has max_retries=3 and keeps default_retry_delay=30 (attributes read from the worker, and real wait), and every task that declares an option keeps it, in its attributes and in what the worker does (the wait ...)". Blind review."""
import random

from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultRetries(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, *args, countdown=None, eta=None, **kwargs):
        if countdown is None and eta is None and "default_retry_delay" in vars(type(self)):
            # a task that picked its own delay talks to a flaky service: back off from it
            countdown = self.default_retry_delay * 2 ** self.request.retries
        return super().retry(*args, countdown=countdown, eta=eta, **kwargs)


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
