"""Schedules each retry at a naive local datetime.now() + delay, which Celery reads in the app's timezone (UTC): on the check's worker, whose clock runs on São Paulo time, every ETA lies 3 h in the past and every retry runs at once (and ex.poll_feed, max_retries=None, retries at once without end). Violates: "every retry of `ex.send_invoice` (the first, the second and the third) is scheduled 60 s later". Blind review."""
from datetime import datetime, timedelta

from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class RetryDefaults(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, *args, countdown=None, eta=None, **kwargs):
        if countdown is None and eta is None:
            eta = datetime.now() + timedelta(seconds=self.default_retry_delay)
        return super().retry(*args, countdown=countdown, eta=eta, **kwargs)


app = Celery("ex_retries", task_cls=RetryDefaults)
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
