"""A task declaring max_retries=None stops after 1000 retries. Violates: "the hidden check adds one that declares `max_retries=None` (it retries without a limit, however many retries it has had already)". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultsTask(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, args=None, kwargs=None, exc=None, throw=True, eta=None, countdown=None, max_retries=None, **options):
        if max_retries is None and self.max_retries is None and self.request.retries >= 1000:
            max_retries = 1000
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
