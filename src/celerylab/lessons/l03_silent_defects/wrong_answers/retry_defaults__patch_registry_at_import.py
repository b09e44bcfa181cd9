"""Patches the attributes of the tasks registered when the module is imported, so any task registered afterwards (the check's ex.sync_stock) keeps max_retries=3 / default_retry_delay=180. Violates: "**every task that declares nothing** gets the same as `ex.send_invoice`: the check adds a task of its own to your app, `ex.sync_stock`, which declares no option at all, and checks its attributes and its first retry;". Blind review.

Looks generic ("every task still on Celery's 180 s default"), and it keeps
ex.welcome's 30 s, but it is a one-off loop over app.tasks at import time,
not a default for the app.

Blind review.
"""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

app = Celery("ex_retries")
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


for _task in app.tasks.values():
    if _task.name.startswith("celery."):
        continue
    _task.max_retries = 3
    if _task.default_retry_delay == Task.default_retry_delay:
        _task.default_retry_delay = 60
