"""Base class retry() scales default_retry_delay by the attempt number, so only the first retry is 60 s later and the second and third wait 120 s and 180 s. Violates: "every retry of `ex.send_invoice` (the first, the second and the third) is scheduled 60 s later;". Blind review.

Attributes are exactly 3/60 and 3/30; a check that looks only at the first
retry's ETA (as the sync_stock one does) sees 60 s.

Blind review.
"""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class Defaults(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, args=None, kwargs=None, exc=None, throw=True, eta=None, countdown=None, max_retries=None,
              **options):
        if countdown is None and eta is None:
            countdown = self.default_retry_delay * (self.request.retries + 1)  # gentle backoff
        return super().retry(args, kwargs, exc, throw, eta, countdown, max_retries, **options)


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
