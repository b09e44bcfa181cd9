"""A "*" annotation gives every task max_retries=3 (and a base class the 60 s delay): a task that declares its own max_retries (5) loses it, because an annotation is applied over what the decorator declared. Violates: "every task that declares an option keeps it, in its attributes and in what the worker does (the wait, the number of retries)". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultsTask(Task):
    default_retry_delay = 60


app = Celery("ex_retries", task_cls=DefaultsTask)
app.conf.update(env_settings())
app.conf.task_annotations = {"*": {"max_retries": 3}}


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
