"""CL409: a quorum queue left on Celery's default direct exchange, and one on a topic exchange (fine)."""
from kombu import Exchange, Queue

from audit_apps.base import make_app

app = make_app("cl409", broker_url="amqp://guest@localhost:5672//", task_default_queue="reminders", task_queues=[
    Queue("reminders", Exchange("reminders"), "reminders", queue_arguments={"x-queue-type": "quorum"}),
    Queue("orders", Exchange("orders", type="topic"), "orders", queue_arguments={"x-queue-type": "quorum"}),
])


@app.task(name="cl409.remind")
def remind():
    return 1
