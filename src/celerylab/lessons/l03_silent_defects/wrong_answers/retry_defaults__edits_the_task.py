"""Puts the options on ex.send_invoice’s decorator: that task is right, any other task that declares nothing is not. Violates: "two tasks you must not change" and "every task that declares nothing"."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

app = Celery("ex_retries")
app.conf.update(env_settings())


@app.task(bind=True, name="ex.send_invoice", max_retries=3, default_retry_delay=60)
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
