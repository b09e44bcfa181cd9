"""Declares the quorum queue `reminders` behind a topic exchange (native delayed delivery) only when the module is loaded by a `celery worker` command: a reminder that another process publishes, such as the shop's web process that imports the module, goes out without it and waits in the worker's memory. Violates: "Configure the app in `ex_reminders.py` so that reminders go through queue `reminders`.". Blind review.

Every reminder the worker itself schedules gets the configuration, so the example passes.
"""
import sys

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"

if "worker" in sys.argv:  # the worker is where the queues are consumed: configure them there
    app.conf.task_queues = {
        "reminders": {"exchange": "reminders", "exchange_type": "topic", "routing_key": "reminders",
                      "queue_arguments": {"x-queue-type": "quorum"}},
    }
