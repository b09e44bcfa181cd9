"""What a node does to a consumer that never acknowledges its delivery: close the channel, cancel it, or nothing."""

import re
import time

import amqp

from celerylab.lessons.l08_rabbitmq.amqp_client import connection, declare, drain


def set_server_timeout(node, ms: int) -> None:
    """The node's consumer_timeout (rabbitmq.conf's, in ms) changed while it runs: queues declared afterwards use it."""
    node.ctl("eval", f"application:set_env(rabbit, consumer_timeout, {ms}).")


def unacked_delivery(node, queue_type: str, *, arguments: dict | None = None, wait: float = 20.0) -> dict:
    """Consume one message of a new `queue_type` queue and never acknowledge it for `wait` s.

    outcome: "channel_closed" (the broker closed the channel: reply_code 406 PRECONDITION_FAILED and its text),
    "consumer_cancelled" (basic.cancel from the broker; the channel stays open), "none" (still unacknowledged after
    `wait` s), or "declare_refused" (the queue's arguments were refused: reply_code and text say why).
    after: seconds from the delivery to the outcome (None for "none").
    """
    seen: dict = {"outcome": "none", "reply_code": None, "reply_text": "", "after": None, "delivered": 0}
    with connection(node) as conn:
        channel = conn.channel()
        try:
            queue = declare(channel, queue_type, arguments)
        except amqp.exceptions.AMQPError as error:
            return {**seen, "outcome": "declare_refused", "reply_code": error.reply_code,
                    "reply_text": str(error.reply_text)}
        channel.basic_publish(amqp.Message("never acknowledged"), routing_key=queue)
        delivered: list[float] = []
        cancelled: list[str] = []
        channel.basic_qos(0, 1, False)
        channel.basic_consume(queue, callback=lambda message: delivered.append(time.monotonic()),
                              on_cancel=lambda tag: cancelled.append(tag))  # an empty list is falsy
        started = time.monotonic()
        while time.monotonic() - started < wait:
            try:
                drain(conn, 0.5)
            except amqp.exceptions.ChannelError as error:
                seen.update(outcome="channel_closed", reply_code=error.reply_code,
                            reply_text=re.sub(r"\s+", " ", str(error.reply_text)))
                break
            if cancelled:
                seen["outcome"] = "consumer_cancelled"
                break
        if seen["outcome"] != "none":
            seen["after"] = round(time.monotonic() - (delivered[0] if delivered else started), 1)
        seen["delivered"] = len(delivered)
    with connection(node) as conn:  # another connection: a cancelled consumer's channel may get a second cancel
        conn.channel().queue_delete(queue)
    return seen
