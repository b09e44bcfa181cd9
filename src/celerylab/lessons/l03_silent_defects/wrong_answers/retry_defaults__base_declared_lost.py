"""Applies 60 s to every task whose own class does not hold default_retry_delay, so a task whose base class declares it (base=...) loses its declared value. Violates: "every task that declares an option keeps it, in its attributes and in what the worker does". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class RetryDefaults:
    def annotate(self, task):
        """What the decorator did not declare gets the defaults (the decorator's options end up in the task's class)."""
        if task.name.startswith("celery."):
            return None
        own = vars(task) if isinstance(task, type) else vars(type(task))
        defaults = {}
        if "max_retries" not in own:
            defaults["max_retries"] = 3
        if "default_retry_delay" not in own:
            defaults["default_retry_delay"] = 60
        return defaults


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
