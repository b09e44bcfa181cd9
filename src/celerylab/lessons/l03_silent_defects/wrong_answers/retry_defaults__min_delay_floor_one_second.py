"""Never retries sooner than 1 s, so a task that declares default_retry_delay=0 waits a second at each retry instead of retrying at once (its three retries and its FAILURE take 3 s, inside the 10 s a state is awaited). Violates: "ex.ping_partner declares default_retry_delay=0 (it retries at once: sent once, its three retries and its FAILURE come within 1.5 s)"."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultRetries(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, *args, countdown=None, eta=None, **kwargs):
        if countdown is None and eta is None:
            countdown = max(self.default_retry_delay, 1)  # never hammer a service: at least 1 s between attempts
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
