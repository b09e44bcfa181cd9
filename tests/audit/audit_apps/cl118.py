"""CL118: the `amqp` result backend, removed in Celery 5: the header names it, no worker can make it."""
from audit_apps.base import make_app

app = make_app("cl118", result_backend="amqp")


@app.task(name="cl118.work")
def work():
    return 1
