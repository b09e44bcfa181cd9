"""Monkey-patches Celery's own base class (celery.Task.max_retries/default_retry_delay) instead of configuring this app: the worker shows 3 and 60 for every task that declares nothing and ex.welcome keeps its 30, but the change leaks into every Celery app imported in the same process (other apps, the check's, library tasks), depends on import order, and is no configuration of the app at all. Violates: "Change the app's configuration so that, on a worker started from your module". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

Task.max_retries = 3  # Celery's defaults, for everybody
Task.default_retry_delay = 60

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
