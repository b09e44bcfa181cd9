"""`x-delivery-limit: 3` read as "3 deliveries": the queue allows the first delivery plus 3 more, so the poison runs 4 times. Violates: "`l08.poison("p1")` starts exactly 3 times"."""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True
app.conf.task_queues = {
    "work": {"exchange": "work", "routing_key": "work",
             "queue_arguments": {"x-queue-type": "quorum", "x-delivery-limit": 3,
                                 "x-dead-letter-exchange": "work.poison",
                                 "x-dead-letter-routing-key": "work.poison"}},
}
