"""A base Task whose __init_subclass__ sets max_retries/default_retry_delay with `or`: a task declaring max_retries=None, max_retries=0 or default_retry_delay=0 loses it to 3 / 60. Violates: "every task that declares an option keeps it, in its attributes and in what the worker does (the wait, the number of retries)". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class TeamTask(Task):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls.max_retries = cls.__dict__.get("max_retries") or 3
        cls.default_retry_delay = cls.__dict__.get("default_retry_delay") or 60


app = Celery("ex_retries", task_cls=TeamTask)
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
