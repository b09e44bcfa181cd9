"""Sets x-delivery-limit to 3 (read as "3 runs"), but the quorum queue allows the first delivery plus 3 redeliveries, so the poison starts 4 times before it is dead-lettered. Violates: "a task that kills its process runs **3 times** and then its message waits in queue `work.poison`". Blind review."""
from kombu import Exchange, Queue

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_queues = [
    Queue("work", Exchange("work", type="direct"), routing_key="work",
          queue_arguments={"x-queue-type": "quorum", "x-delivery-limit": 3,
                           "x-dead-letter-exchange": "work.poison", "x-dead-letter-routing-key": "work.poison"}),
]
app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True
