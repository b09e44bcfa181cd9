"""Caps the retries of a task that declares max_retries=None at 10 (a "safety net"), so it does not retry without a limit. Violates: "the hidden check adds one that declares max_retries=None (it retries without a limit)" / "every task that declares an option keeps it ... in what the worker does (the number of retries)". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultRetries(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, *args, max_retries=None, **kwargs):
        if max_retries is None and self.max_retries is None:
            max_retries = 10  # safety net: no task retries forever
        return super().retry(*args, max_retries=max_retries, **kwargs)


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
