"""Limit and dead-letter exchange, without `task_reject_on_worker_lost`: Celery acknowledges the message when the child dies, so it runs once and is never set aside. Violates: "`l08.poison("p1")` starts exactly 3 times"."""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_queues = {
    "work": {"exchange": "work", "routing_key": "work",
             "queue_arguments": {"x-queue-type": "quorum", "x-delivery-limit": 2,
                                 "x-dead-letter-exchange": "work.poison",
                                 "x-dead-letter-routing-key": "work.poison"}},
}
