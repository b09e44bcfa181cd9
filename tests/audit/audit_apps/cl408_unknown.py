"""CL408 undecided: an acks_late task with no limit on RabbitMQ (it may or may not outlast consumer_timeout)."""
from audit_apps.base import make_app

app = make_app("cl408u", drop=("task_time_limit", "task_soft_time_limit"),
               broker_url="amqp://guest@localhost:5672//",
               task_reject_on_worker_lost=True)


@app.task(name="cl408u.export", acks_late=True)
def export():
    return 1
