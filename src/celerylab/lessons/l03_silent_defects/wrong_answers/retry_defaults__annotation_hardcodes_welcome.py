"""Uses a callable annotation that hard-codes 30 s for ex.welcome and 60 s for everything else: the check's numbers come out right, but ex.welcome does not keep what its decorator declares — change the decorator to 45 and it still waits 30 — and any other task that declares its own delay is overwritten with 60. Violates: "5. `ex.welcome` has `max_retries=3` and keeps `default_retry_delay=30`". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class RetryDefaults:
    """60 s for every task; welcome keeps its own 30 s."""

    def annotate(self, task):
        delay = 30 if task.name == "ex.welcome" else 60
        return {"max_retries": 3, "default_retry_delay": delay}


app = Celery("ex_retries")
app.conf.update(env_settings())
app.conf.task_annotations = [RetryDefaults()]


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
