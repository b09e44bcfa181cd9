"""Adds acks_late to the classic reminders queue hoping an unacknowledged ETA will simply be redelivered, so the reminder is still held in the worker, the channel closes at 3 s and the process manager restarts the worker. Violates: "the worker never logs the ack timeout, and the process manager never has to start it again.". Blind review.

acks_late changes nothing for an ETA task: it is acknowledged only when it runs either way.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True
app.conf.worker_prefetch_multiplier = 1
