"""Sets x-delivery-limit and a dead-letter exchange on a classic `work` queue: classic queues ignore a delivery limit, so the poison is delivered again and again and never reaches work.poison. Violates: "a task that kills its process runs **3 times** and then its message waits in queue `work.poison`". Blind review."""
from kombu import Exchange, Queue

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_queues = [
    Queue("work", Exchange("work", type="direct"), routing_key="work",
          queue_arguments={"x-delivery-limit": 2,
                           "x-dead-letter-exchange": "work.poison", "x-dead-letter-routing-key": "work.poison"}),
]
app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True
