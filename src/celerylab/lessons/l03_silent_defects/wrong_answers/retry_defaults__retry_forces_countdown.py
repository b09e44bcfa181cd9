"""A base class whose retry() forces countdown=60: attributes read right (welcome says 30) but welcome's real retries wait 60 s. Violates: "5. `ex.welcome` has `max_retries=3` and keeps `default_retry_delay=30` (attributes read from the worker, and real wait)." Blind review.
"""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class RetryEvery60(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, args=None, kwargs=None, exc=None, throw=True, eta=None, countdown=None, max_retries=None,
              **options):
        if countdown is None and eta is None:
            countdown = 60  # the team's policy: 60 s between attempts
        return super().retry(args, kwargs, exc, throw, eta, countdown, max_retries, **options)


app = Celery("ex_retries", task_cls=RetryEvery60)
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
