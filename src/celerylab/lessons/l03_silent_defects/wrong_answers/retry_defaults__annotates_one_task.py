"""Annotates only ex.send_invoice: the invoice gets 3 retries 60 s apart, but a task that declares nothing keeps Celery’s 180 s. Violates: "every task that declares nothing gets the same as ex.send_invoice"."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

app = Celery("ex_retries")
app.conf.update(env_settings())
app.conf.task_annotations = {"ex.send_invoice": {"max_retries": 3, "default_retry_delay": 60}}


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
