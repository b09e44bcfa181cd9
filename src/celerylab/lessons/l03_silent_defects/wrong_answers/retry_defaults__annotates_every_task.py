"""A "*" annotation: every task gets 60 s, including ex.welcome, whose own 30 s the annotation overrides. Violates: "ex.welcome has max_retries=3 and keeps default_retry_delay=30"."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

app = Celery("ex_retries")
app.conf.update(env_settings())
app.conf.task_annotations = {"*": {"max_retries": 3, "default_retry_delay": 60}}


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
