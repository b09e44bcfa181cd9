"""A base class with max_retries=4 ("3 retries after the first try"): a fourth retry is scheduled before FAILURE. Violates: "3. there is no fourth retry: after three, the task ends in `FAILURE`;" Blind review.
"""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class Defaults(Task):
    max_retries = 4
    default_retry_delay = 60


app = Celery("ex_retries", task_cls=Defaults)
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
