"""Lesson 02's bound on a killed task's comeback reads the sweep options the way the installed kombu runs them."""
from __future__ import annotations

from types import SimpleNamespace
from unittest import mock

import kombu
import pytest
import redis
from kombu.transport.redis import Channel, QoS, Transport

from celerylab.lessons.l02_workers import sweep_bound
from celerylab.stack import broker as brokers


class Scanned(Exception):
    """restore_visible got past its throttle and asked for a Redis connection."""


def kombu_scan_every(throttle, calls: int = 400) -> int:
    """The most calls between two scans of kombu's own QoS.restore_visible over `calls` calls."""
    qos = QoS.__new__(QoS)
    qos._vrestore_count = 0
    qos.channel = mock.Mock(conn_or_acquire=mock.Mock(side_effect=Scanned))
    scans = []
    for n in range(calls):
        try:
            qos.restore_visible(num=None, interval=throttle)
        except Scanned:
            scans.append(n)
    return max(later - earlier for earlier, later in zip(scans, scans[1:]))


@pytest.mark.parametrize("throttle", [10, 3, 1, 0, None, -1, -2, True, False, 1.5, 2.5, 0.5, -1.0, 3.0])
def test_the_calls_between_scans_are_kombus(throttle):
    assert sweep_bound.scan_every(throttle) == kombu_scan_every(throttle)


def test_a_throttle_kombu_never_scans_with_is_no_bound():
    assert sweep_bound.scan_every(float("nan")) is None and sweep_bound.scan_every("1") is None
    assert sweep_bound.scan_every(0.1) >= sweep_bound.CALLS  # 1 % 0.1 is not 0: kombu scans on call 0 only


def kombu_sweep_interval(interval) -> float:
    """The seconds between restore_visible calls kombu's transport registers on a worker's event loop."""
    transport = Transport.__new__(Transport)
    transport.cycle = mock.Mock()
    loop = mock.Mock()
    transport.register_with_event_loop(SimpleNamespace(client=SimpleNamespace(transport_options={
        "unacked_restore_interval": interval})), loop)
    [seconds] = [call.args[0] for call in loop.call_repeatedly.call_args_list
                 if call.args[1] is transport.cycle.maybe_restore_messages]
    return seconds


@pytest.mark.parametrize("interval", [0.5, 2, 10, 0, -1, -0.5, True])
def test_the_sweep_interval_is_kombus(interval):
    options = {"unacked_restore_interval": interval, "unacked_restore_throttle": 1}
    assert sweep_bound.sweep_period(options, Channel.unacked_restore_interval, 10) == kombu_sweep_interval(interval)


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    broker = brokers.choose(tmp_path_factory.mktemp("broker"), kind="redis-server")
    yield broker.url
    broker.stop()


def kombu_restores(url: str, limit, held: int = 3) -> int:
    """How many of `held` expired, unacknowledged messages one of kombu's scans gives back to their queue."""
    redis.Redis.from_url(url).flushdb()
    with kombu.Connection(url, transport_options={"visibility_timeout": 0, "unacked_restore_limit": limit}) as conn:
        queue = conn.SimpleQueue("sweep-bound")
        for number in range(held):
            queue.put(number)
        [queue.get(timeout=5) for _ in range(held)]  # delivered, never acknowledged
        channel = queue.channel
        try:
            channel.qos.restore_visible(num=channel.unacked_restore_limit, interval=1)
        except redis.RedisError:
            pass  # Redis refused the LIMIT: nothing comes back
        restored = redis.Redis.from_url(url).llen("sweep-bound")
        redis.Redis.from_url(url).flushdb()  # before the close gives the rest back
    return restored


@pytest.mark.live
@pytest.mark.needs("redis-server")
@pytest.mark.parametrize("limit", [None, 1, 2, 0, -1, 2.0, 1.5, True, "1", "0"])
def test_the_messages_a_scan_gives_back_are_kombus(redis_url, limit):
    per_sweep = sweep_bound.restored_per_sweep({"unacked_restore_limit": limit}, None)
    assert (3 if per_sweep is None else min(3, per_sweep)) == kombu_restores(redis_url, limit)


def test_the_latest_comeback_of_the_blind_answers():
    """A throttle of 0 or -1 scans on every call, an interval of 0 is kombu's 10 s, a limit of 0 gives nothing back."""
    def latest(**options):
        return sweep_bound.latest_back({"unacked_restore_interval": 0.5, "unacked_restore_throttle": 1, **options},
                                       4, Channel)

    assert latest(visibility_timeout=7.5, unacked_restore_throttle=-1) == 8.0
    assert latest(visibility_timeout=7.5, unacked_restore_throttle=0) == 8.0
    assert latest(visibility_timeout=6, unacked_restore_interval=0) == 16.0
    assert latest(visibility_timeout=6, unacked_restore_limit=0) is None
    assert latest(visibility_timeout=6, unacked_restore_limit=1) == 8.0
    assert latest(visibility_timeout=6.25) == 6.75
    assert latest(visibility_timeout="6") is None
