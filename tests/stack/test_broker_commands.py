"""The broker's commands as MONITOR shows them: every one seen with the server's time, a mark that says all were seen,
and a server without MONITOR said so instead of failing in a thread."""
from __future__ import annotations

import time

import pytest
import redis

from celerylab.stack import broker, redis_binaries
from celerylab.stack.broker_commands import BrokerCommands
from celerylab.stack.embedded_redis import serve

pytestmark = pytest.mark.live


@pytest.mark.needs("redis-server")
def test_every_command_is_seen_with_the_servers_time_and_a_mark_says_all_were(tmp_path):
    server = broker.private_redis_server(tmp_path, redis_binaries.system())
    try:
        seen: list[tuple[str, float]] = []
        client = redis.Redis.from_url(server.url)
        with BrokerCommands(server.url, lambda text, at: seen.append((text, at))) as commands:
            assert commands.supported is True
            before = time.time()
            client.hset("q-unacked", "tag-1", '{"id": "abc"}')
            client.hdel("q-unacked", "tag-1")
            assert commands.caught_up()
            texts = [text for text, _ in seen]
            assert 'HSET q-unacked tag-1 {"id": "abc"}' in texts and "HDEL q-unacked tag-1" in texts
            assert all(abs(at - before) < 5 for _, at in seen)
            assert not any(text.startswith("EXISTS celerylab-mark-") for text in texts)  # the marks are its own
        client.close()
    finally:
        server.stop()


def test_a_server_without_monitor_is_said_so_and_nothing_is_seen():
    server = serve()
    url = f"redis://127.0.0.1:{server.server_address[1]}/0"
    try:
        seen: list[str] = []
        with BrokerCommands(url, lambda text, at: seen.append(text)) as commands:
            assert commands.supported is False
            redis.Redis.from_url(url).set("k", "v")
            assert commands.caught_up(timeout=0.5) is False
        assert seen == []
    finally:
        server.shutdown()
