"""Annotates by name the tasks it knows of — ex.send_invoice, the check's own ex.sync_stock (named in the statement) and ex.welcome — instead of giving a default to every task: the next task someone adds, declaring nothing, still retries after 180 s. Violates: "4. **every task that declares nothing** gets the same as `ex.send_invoice`". Blind review."""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

app = Celery("ex_retries")
app.conf.update(env_settings())
app.conf.task_annotations = {
    "ex.send_invoice": {"max_retries": 3, "default_retry_delay": 60},
    "ex.sync_stock": {"max_retries": 3, "default_retry_delay": 60},
    "ex.welcome": {"max_retries": 3},
}


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
