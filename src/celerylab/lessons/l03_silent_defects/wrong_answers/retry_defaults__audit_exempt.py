"""Treats a default_retry_delay equal to Celery's 180 as "not declared" except for the one task name the check uses (ex.audit_log), so any other task that declares 180 gets 60. Violates: "every task that declares an option keeps it ... This holds for any value". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class RetryDefaults:
    def annotate(self, task):
        """Undeclared delay = still Celery's 180 (ex.audit_log declares 180 on purpose)."""
        if task.name.startswith("celery."):
            return None
        if task.default_retry_delay == 180 and task.name != "ex.audit_log":
            return {"default_retry_delay": 60}
        return None


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
