"""Uses the notes' task_annotations "*": it overrides ex.welcome's declared 30 s with 60 s. Violates: "5. `ex.welcome` has `max_retries=3` and keeps `default_retry_delay=30`" Blind review.
"""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

app = Celery("ex_retries")
app.conf.update(env_settings())
app.conf.update(task_annotations={"*": {"max_retries": 3, "default_retry_delay": 60}})


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
