"""From the third retry on, a task that declares its own delay backs off (ex.welcome waits 30, 30, then 60; ex.audit_log 180, 180, 360). Violates: "every task that declares an option keeps it, in its attributes and in what the worker does (the wait of each retry, the number of retries)". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultsTask(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, args=None, kwargs=None, exc=None, throw=True, eta=None, countdown=None, max_retries=None, **options):
        if countdown is None and eta is None and self.request.retries >= 2 and self.default_retry_delay != 60:
            countdown = self.default_retry_delay * 2 ** (self.request.retries - 1)  # declared delays back off
        return super().retry(args=args, kwargs=kwargs, exc=exc, throw=throw, eta=eta, countdown=countdown,
                             max_retries=max_retries, **options)


app = Celery("ex_retries", task_cls=DefaultsTask)
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
