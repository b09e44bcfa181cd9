"""A plain AMQP 0-9-1 connection (py-amqp) to a private node, and a fresh durable queue of a given type on it: the
plumbing of the experiments that compare RabbitMQ releases (consumer_timeout, delivery_limit)."""
from __future__ import annotations

import socket
import uuid
from contextlib import contextmanager

import amqp


@contextmanager
def connection(node):
    """An open py-amqp connection to `node` (guest on its loopback listener), closed afterwards."""
    conn = amqp.Connection(host=f"127.0.0.1:{node.port}", userid="guest", password="guest", connect_timeout=10)
    conn.connect()
    try:
        yield conn
    finally:
        try:
            conn.close()
        except (OSError, amqp.exceptions.AMQPError):
            conn.collect()


def declare(channel, queue_type: str, arguments: dict | None = None) -> str:
    """A new durable queue of `queue_type` ("classic", "quorum") with `arguments`; its name."""
    name = f"l08-release-{queue_type}-{uuid.uuid4().hex[:8]}"
    channel.queue_declare(name, durable=True, auto_delete=False,
                          arguments={"x-queue-type": queue_type, **(arguments or {})})
    return name


def drain(conn, seconds: float) -> bool:
    """Handle what the broker sends for up to `seconds`; whether something arrived."""
    try:
        conn.drain_events(timeout=seconds)
        return True
    except socket.timeout:
        return False
