"""A base class retry() that treats a falsy max_retries as unset (`max_retries or self.max_retries or 3`): ex.charge_once (max_retries=0) retries instead of failing on its first error, and a task declaring max_retries=None stops retrying after three. Violates: "This holds for any value, those Python reads as false included". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class RetryDefaults(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, *args, max_retries=None, **kwargs):
        max_retries = max_retries or self.max_retries or 3
        return super().retry(*args, max_retries=max_retries, **kwargs)


app = Celery("ex_retries", task_cls=RetryDefaults)
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
