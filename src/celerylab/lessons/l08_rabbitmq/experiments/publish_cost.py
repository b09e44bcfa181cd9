"""300 `send_task` calls from a producer-only app, with or without publisher confirms: what each costs, whether
the channel was in confirm mode, and how many messages reached the queue."""
import time
from dataclasses import dataclass

from celery import Celery

from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until

PUBLISHES = 300


@dataclass
class PublishCost:
    ms_per_message: float
    confirm_mode: bool   # amqp's flag, set when the channel enters confirm mode
    published: int       # messages in the queue once the last send returned (the warm-up one aside)


def publish_cost(node, *, confirm: bool) -> PublishCost:
    queue = helpers.queue_name("pub")
    app = Celery("l08-publisher", broker=node.url, set_as_current=False,
                 broker_transport_options={"confirm_publish": True} if confirm else {})
    app.send_task("l08.echo", ("warm",), queue=queue)  # the connection and the queue's declaration, not counted
    started = time.perf_counter()
    for number in range(PUBLISHES):
        app.send_task("l08.echo", (number,), queue=queue)
    elapsed = time.perf_counter() - started
    with app.producer_or_acquire() as producer:
        confirming = producer.channel._confirm_selected
    app.close()
    until(lambda: helpers.ready(node, queue) == PUBLISHES + 1, helpers.EXPECTED)
    return PublishCost(1000 * elapsed / PUBLISHES, confirming, (helpers.ready(node, queue) or 0) - 1)
