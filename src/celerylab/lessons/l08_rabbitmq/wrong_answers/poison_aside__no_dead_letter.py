"""A quorum queue with the delivery limit and no dead-letter exchange: the poison stops after 3 runs, and its message is dropped. Violates: "the poison message waits in `work.poison`"."""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True
app.conf.task_queues = {
    "work": {"exchange": "work", "routing_key": "work",
             "queue_arguments": {"x-queue-type": "quorum", "x-delivery-limit": 2}},
}
