"""Adds up to 0.9 s of random jitter to every retry without a countdown, so retries are not scheduled 60 s (or the declared 30 s) later. Violates: "every retry of ex.send_invoice (the first, the second and the third) is scheduled 60 s later". Blind review."""
import random

from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultRetries(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, *args, countdown=None, eta=None, **kwargs):
        if countdown is None and eta is None:
            countdown = self.default_retry_delay + random.uniform(0, 0.9)  # spread the herd a little
        return super().retry(*args, countdown=countdown, eta=eta, **kwargs)


app = Celery("ex_retries", task_cls=DefaultRetries)
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
