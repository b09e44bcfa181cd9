"""Task class gives 3 and 60 s only to tasks named "ex.*" that do not declare them; a task under any other name keeps 3 and 180 s. Violates: "**every task that declares nothing** gets the same as `ex.send_invoice`". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings


class DefaultsTask(Task):
    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("name") or ""
        if name.startswith("ex."):  # this module's tasks
            if "max_retries" not in cls.__dict__:
                cls.max_retries = 3
            if "default_retry_delay" not in cls.__dict__:
                cls.default_retry_delay = 60


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
