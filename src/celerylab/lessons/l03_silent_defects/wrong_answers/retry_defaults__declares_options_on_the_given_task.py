"""Repeats the options on ex.send_invoice's decorator (and a countdown in its retry) over a right base class: the worker behaves as the right answer, but a given task was changed. Violates: "The module `ex_retries.py` holds the incident's app and two tasks you must **not change**". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class Defaults(Task):
    max_retries = 3
    default_retry_delay = 60


app = Celery("ex_retries", task_cls=Defaults)
app.conf.update(env_settings())


@app.task(bind=True, name="ex.send_invoice", max_retries=3, default_retry_delay=60)
def send_invoice(self, invoice_id):
    try:
        raise ConnectionError("billing API down")
    except ConnectionError as exc:
        raise self.retry(exc=exc, countdown=60)


@app.task(bind=True, name="ex.welcome", default_retry_delay=30)
def welcome(self, user_id):
    try:
        raise ConnectionError("smtp down")
    except ConnectionError as exc:
        raise self.retry(exc=exc)
