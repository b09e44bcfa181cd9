"""Quorum queue with limit 2 and DLX, but acks_late/reject_on_worker_lost set only for the task the check sends (l08.poison) via task_annotations: any other task that kills its process on `work` is acked and lost after 1 run. Violates: "so that, on queue `work`, a task that kills its process runs **3 times** and then its message waits in queue `work.poison`". Blind review.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_annotations = {"l08.poison": {"acks_late": True, "reject_on_worker_lost": True}}
app.conf.task_queues = {
    "work": {
        "exchange": "work", "exchange_type": "direct", "routing_key": "work",
        "queue_arguments": {"x-queue-type": "quorum", "x-delivery-limit": 2,
                            "x-dead-letter-exchange": "work.poison", "x-dead-letter-routing-key": "work.poison"},
    },
}
