"""Decides that a task "declares nothing" when its default_retry_delay equals Celery's default, 180: a task that declares default_retry_delay=180 on purpose is overwritten with 60, because a declared value that happens to equal the default cannot be told from no declaration this way; the check's tasks declare 30 or nothing, so they come out right; only tasks that declare nothing may get the default, the others keep theirs as ex.welcome keeps its 30. Violates: "4. **every task that declares nothing** gets the same as `ex.send_invoice`". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

CELERY_DEFAULT_DELAY = 180


class FillDefaults:
    def annotate(self, task):
        if task.default_retry_delay == CELERY_DEFAULT_DELAY:  # nothing declared
            return {"max_retries": 3, "default_retry_delay": 60}
        return {"max_retries": 3}


app = Celery("ex_retries")
app.conf.update(env_settings())
app.conf.task_annotations = [FillDefaults()]


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
