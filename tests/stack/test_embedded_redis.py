"""The embedded broker under connection churn: every new connection gets its own replies, and pub/sub works."""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest
import redis

from celerylab.stack.embedded_redis import serve

pytestmark = pytest.mark.live


def test_many_short_connections_from_many_threads_all_answered():
    server = serve()
    port = server.server_address[1]

    def churn(worker: int) -> int:
        answered = 0
        for i in range(40):
            client = redis.Redis(port=port, socket_timeout=5, socket_connect_timeout=5)
            client.set(f"k{worker}-{i}", i)
            answered += int(client.get(f"k{worker}-{i}")) == i
            client.close()
        return answered

    try:
        with ThreadPoolExecutor(8) as pool:
            assert sum(pool.map(churn, range(8))) == 8 * 40
    finally:
        server.shutdown()


def test_published_message_and_blocking_pop_reach_their_clients():
    server = serve()
    port = server.server_address[1]
    try:
        subscriber = redis.Redis(port=port, socket_timeout=5).pubsub()
        subscriber.subscribe("events")
        assert subscriber.get_message(timeout=2)["type"] == "subscribe"
        redis.Redis(port=port).publish("events", "hello")
        assert subscriber.get_message(timeout=2)["data"] == b"hello"
        popper = redis.Redis(port=port, socket_timeout=5)
        with ThreadPoolExecutor(1) as pool:
            waiting = pool.submit(popper.brpop, ["queue"], 3)
            redis.Redis(port=port).lpush("queue", "job")
            assert waiting.result(timeout=5) == (b"queue", b"job")
    finally:
        server.shutdown()
