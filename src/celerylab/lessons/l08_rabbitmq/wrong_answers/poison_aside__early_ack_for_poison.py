"""Turns acks_late off for l08.poison so a dead child no longer sends its message back, which stops the loop by acknowledging the poison on its first start: it runs once and vanishes. Violates: "Configure the app in `ex_poison.py` so that, on queue `work`, a task that kills its process runs **3 times** and then its message waits in queue `work.poison` (for someone to look at), instead of vanishing or running forever.". Blind review.

Fixes "running forever" by removing the redelivery; the report keeps acks_late and succeeds.
"""
from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "work"
app.conf.task_acks_late = True
app.conf.task_reject_on_worker_lost = True
app.conf.task_annotations = {"l08.poison": {"acks_late": False}}
