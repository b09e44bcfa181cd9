"""Sets the attributes on the two visible tasks after decoration, leaving the app's default at 180 s: ex.sync_stock (or any new task) is not covered, and welcome is touched. Violates: "4. **every task that declares nothing** gets the same as `ex.send_invoice`" Blind review.
"""
from celery import Celery, Task

from celerylab.stack.appconfig import env_settings

app = Celery("ex_retries")
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


send_invoice.max_retries = 3
send_invoice.default_retry_delay = 60
welcome.max_retries = 3
