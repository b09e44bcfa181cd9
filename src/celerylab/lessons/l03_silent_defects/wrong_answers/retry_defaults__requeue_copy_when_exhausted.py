"""When its retries run out, the task sends a fresh copy of itself to run an hour later (a fourth, fifth... attempt under another task id) while this one ends in FAILURE. Violates: "there is no fourth retry: after three, the task ends in `FAILURE`, and nothing of it is left to run later (no copy sent under another id, neither in the broker nor held by the worker)". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultsTask(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, args=None, kwargs=None, exc=None, throw=True, eta=None, countdown=None, max_retries=None, **options):
        limit = self.max_retries if max_retries is None else max_retries
        if limit is not None and self.request.retries >= limit and not self.request.called_directly:
            # out of retries: park a fresh copy for an hour later, so the work is never lost
            self.apply_async(args=self.request.args, kwargs=self.request.kwargs, countdown=3600)
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
