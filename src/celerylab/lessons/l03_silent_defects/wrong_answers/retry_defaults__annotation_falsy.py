"""An annotation that fills each option the task's class does not set to a truthy value: a task declaring max_retries=None (retry forever), max_retries=0 or default_retry_delay=0 gets 3 / 60 instead. Violates: "every task that declares an option keeps it, in its attributes and in what the worker does (the wait, the number of retries)". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

DEFAULTS = {"max_retries": 3, "default_retry_delay": 60}


class FillUndeclared:
    """Give every task the team's defaults, except for the options its decorator declared."""

    def annotate(self, task):
        declared = vars(task)  # annotations get the task class
        return {key: value for key, value in DEFAULTS.items() if not declared.get(key)}

    def annotate_any(self):
        return None


app = Celery("ex_retries")
app.conf.update(env_settings())
app.conf.task_annotations = [FillUndeclared()]


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
