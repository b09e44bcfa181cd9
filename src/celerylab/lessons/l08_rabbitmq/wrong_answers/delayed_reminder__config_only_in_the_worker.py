"""Sets the quorum queue behind a topic exchange only inside the worker (celeryd_init): the shop's web process, which runs remind_later with its own configuration, sends classic countdowns the worker holds in memory.

Violates: "schedules `l08.remind(label)` `countdown` seconds from now, with the configuration of the process that runs it"

Blind review.
"""
from celery.signals import celeryd_init
from kombu import Exchange, Queue

from celerylab.lessons.l08_rabbitmq.tasks import app

app.conf.task_default_queue = "reminders"


@celeryd_init.connect
def quorum_reminders(conf=None, **_):
    """The worker owns its queues: declare `reminders` as a quorum queue behind a topic exchange there."""
    reminders = Exchange("reminders", type="topic")
    conf.task_queues = [Queue("reminders", reminders, routing_key="reminders",
                              queue_arguments={"x-queue-type": "quorum"})]
    conf.task_default_exchange = "reminders"
    conf.task_default_exchange_type = "topic"
    conf.task_default_routing_key = "reminders"
