"""How many times a quorum queue declared without `x-delivery-limit` hands out a message that is always returned."""

import time

import amqp

from celerylab.lessons.l08_rabbitmq.amqp_client import connection, declare

GIVE_UP = 40  # deliveries after which the queue is taken to have no limit


def count(message, name: str) -> int | None:
    """A delivery's `name` header (x-delivery-count, x-acquired-count), None where the broker did not set it."""
    value = (message.headers or {}).get(name)
    return int(value) if value is not None else None


def returned_forever(node, how: str, *, arguments: dict | None = None) -> dict:
    """Publish one message to a new quorum queue and give it back after each delivery until it stops coming.

    how: "reject" (basic.reject with requeue, a consumer saying it failed), "channel_closed" (the channel closes
    with the message unacknowledged, what a worker's death does) or "recover" (basic.recover with requeue: handed
    back unacknowledged, no failure said).
    deliveries: how often it was delivered (GIVE_UP: no limit met); dropped: it stopped coming before GIVE_UP and
    the queue is empty (no dead-letter exchange: gone); last_delivery_count: the last delivery's x-delivery-count;
    last_acquired_count: the last delivery's x-acquired-count (None where the broker sets no such header).
    """
    deliveries = 0
    last = None
    with connection(node) as conn:
        channel = conn.channel()
        queue = declare(channel, "quorum", arguments)
        channel.basic_publish(amqp.Message("poison"), routing_key=queue)
        while deliveries < GIVE_UP:
            message = channel.basic_get(queue, no_ack=False)
            if message is None:  # a returned message is back in the queue at once: none means it was dropped
                message = _again(channel, queue)
            if message is None:
                break
            deliveries += 1
            last = message
            if how == "reject":
                channel.basic_reject(message.delivery_tag, requeue=True)
            elif how == "recover":
                channel.basic_recover(requeue=True)
            else:
                channel.close()
                channel = conn.channel()
        left = channel.queue_declare(queue, passive=True).message_count
        channel.queue_delete(queue)
    return {"deliveries": deliveries, "dropped": deliveries < GIVE_UP and left == 0,
            "last_delivery_count": count(last, "x-delivery-count") if last else None,
            "last_acquired_count": count(last, "x-acquired-count") if last else None}


def _again(channel, queue: str, tries: int = 20):
    """basic.get retried for about a second (a requeue through a closed channel takes a moment to land)."""
    for _ in range(tries):
        time.sleep(0.05)
        message = channel.basic_get(queue, no_ack=False)
        if message is not None:
            return message
    return None
