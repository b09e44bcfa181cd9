"""A task that declares nothing but lives in another module gets a fourth retry (its attribute still says 3). Violates: "**every task that declares nothing** gets the same as `ex.send_invoice`". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultsTask(Task):
    max_retries = 3
    default_retry_delay = 60

    def retry(self, args=None, kwargs=None, exc=None, throw=True, eta=None, countdown=None, max_retries=None, **options):
        # tasks from other modules than this one get one extra retry when they declare no limit of their own
        if max_retries is None and type(self).__module__ != __name__ and self.max_retries == 3:
            max_retries = 4
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
