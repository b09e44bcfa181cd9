"""CL408: an acks_late task allowed to run an hour on RabbitMQ, whose default consumer_timeout is 30 minutes."""
from audit_apps.base import make_app

app = make_app("cl408", broker_url="amqp://guest@localhost:5672//",
               task_reject_on_worker_lost=True)


@app.task(name="cl408.nightly", acks_late=True, time_limit=3600, soft_time_limit=3500)
def nightly():
    return 1


@app.task(name="cl408.short", acks_late=True)
def short():
    return 1
