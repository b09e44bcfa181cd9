"""A base class (3 retries, 60 s) whose retry() also refuses any retry beyond the fourth, whatever the task declares: ex.import_feed (max_retries=5) gets its 4th retry but never its 5th. Violates: "every task that declares an option keeps it, in its attributes and in what the worker does (the wait, the number of retries): [...] `ex.import_feed`, which declares `max_retries=5` (its fifth retry is scheduled, and there is no sixth)". Blind review."""
from celery import Celery, Task
from celery.exceptions import MaxRetriesExceededError

from celerylab.stack.appconfig import env_settings


class Defaults(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, *args, **kwargs):
        if self.request.retries >= 4:
            exc = kwargs.get("exc")
            if exc is not None:
                raise exc
            raise MaxRetriesExceededError("retry budget of the app: 4")
        return super().retry(*args, **kwargs)


app = Celery("ex_retries", task_cls=Defaults)
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
