"""Native delayed delivery on a quorum queue, plus acks_late "for safety": a reminder running when the worker is killed runs again. Violates: "each reminder runs exactly once, and not before its countdown; `r2`, due first, runs before `r1` is due;". Blind review.
"""
from kombu import Exchange, Queue
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
app.conf.task_default_queue_type = "quorum"
app.conf.task_queues = [Queue("reminders", Exchange("reminders", type="topic"), routing_key="reminders", queue_arguments={"x-queue-type": "quorum"})]
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True
