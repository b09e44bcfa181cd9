"""Dead-letters to exchange `work.poison` without x-dead-letter-routing-key, so the message keeps its routing key `work`, matches no binding of the direct exchange (bound with key `work.poison`) and is silently dropped after the third run. Violates: "its message waits in queue `work.poison` (for someone to look at), instead of vanishing or running forever". Blind review."""
from kombu import Exchange, Queue

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_queues = [
    Queue("work", Exchange("work", type="direct"), routing_key="work",
          queue_arguments={"x-queue-type": "quorum", "x-delivery-limit": 2,
                           "x-dead-letter-exchange": "work.poison"}),
]
app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True
