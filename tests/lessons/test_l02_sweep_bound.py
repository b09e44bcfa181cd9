"""Lesson 02's bound on a killed task's comeback reads the sweep options the way the installed kombu runs them."""
from __future__ import annotations

import math
import time
from types import SimpleNamespace
from unittest import mock

import kombu
import pytest
import redis
from kombu.transport.redis import Channel, Mutex, QoS, Transport

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
    transport, cycle = Transport.__new__(Transport), mock.Mock()
    transport.cycle = cycle  # type: ignore[assignment]  # the polling cycle a connected transport has
    loop = mock.Mock()
    transport.register_with_event_loop(SimpleNamespace(client=SimpleNamespace(transport_options={
        "unacked_restore_interval": interval})), loop)
    [seconds] = [call.args[0] for call in loop.call_repeatedly.call_args_list
                 if call.args[1] is cycle.maybe_restore_messages]
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
        return sweep_bound.latest_back({"unacked_restore_interval": 0.5, "unacked_restore_throttle": 1,
                                        "unacked_mutex_expire": 2, **options}, 4, Channel)

    assert latest(visibility_timeout=7.5, unacked_restore_throttle=-1) == 8.0
    assert latest(visibility_timeout=7.5, unacked_restore_throttle=0) == 8.0
    assert latest(visibility_timeout=6, unacked_restore_interval=0) == 16.0
    assert latest(visibility_timeout=6, unacked_restore_limit=0) is None
    assert latest(visibility_timeout=6, unacked_restore_limit=1) == 8.0
    assert latest(visibility_timeout=6.25) == 6.75
    assert latest(visibility_timeout="6") is None


def test_a_killed_sweep_s_mutex_delays_the_comeback():
    """A worker killed holding the unacked mutex keeps the others' sweeps out until it expires (kombu's 300 s when
    unset); a mutex that never expires, or that no sweep can take, means never."""
    def latest(**options):
        return sweep_bound.latest_back({"visibility_timeout": 6, "unacked_restore_interval": 0.5,
                                        "unacked_restore_throttle": 1, **options}, 4, Channel)

    assert latest(unacked_mutex_expire=2) == 6.5
    assert latest(unacked_mutex_expire=7) == 7.5
    assert latest(unacked_mutex_expire=3600) == 3600.5
    assert latest() == Channel.unacked_mutex_expire + 0.5 == 300.5
    assert latest(unacked_mutex_expire=0) is None and latest(unacked_mutex_expire=None) is None
    assert latest(unacked_mutex_expire=-1) is None and latest(unacked_mutex_expire="2") is None


ABSENT = object()


def kombu_mutex_held(url: str, expire) -> float | None:
    """Seconds kombu's unacked mutex stays held when the worker that took it for a sweep dies inside it (None: for
    ever, or no sweep can take it)."""
    client = redis.Redis.from_url(url)
    client.flushdb()
    options = {} if expire is ABSENT else {"unacked_mutex_expire": expire}
    with kombu.Connection(url, transport_options=options) as conn:
        qos = conn.default_channel.qos
        sweep = Mutex(client, qos.unacked_mutex_key, qos.unacked_mutex_expire)
        try:
            sweep.__enter__()  # taken as restore_visible takes it, and never released: the worker dies inside
        except (redis.RedisError, ValueError, OverflowError):
            return None  # the sweep raises: so does every other one
        milliseconds = client.pttl(qos.unacked_mutex_key)
        del sweep
        client.flushdb()
    return None if milliseconds < 0 else milliseconds / 1000


@pytest.mark.live
@pytest.mark.needs("redis-server")
@pytest.mark.parametrize("expire", [ABSENT, 2, 3600, 0.5, 1.5, True, 0, None, False, -1, 0.0004, "2", math.nan,
                                    math.inf])
def test_the_time_a_killed_sweep_holds_the_mutex_is_kombus(redis_url, expire):
    options = {} if expire is ABSENT else {"unacked_mutex_expire": expire}
    ours, kombus = sweep_bound.mutex_held(options, Channel.unacked_mutex_expire), kombu_mutex_held(redis_url, expire)
    assert (ours is None) == (kombus is None)
    assert ours is None or abs(ours - kombus) < 0.2


@pytest.mark.live
@pytest.mark.needs("redis-server")
def test_a_held_mutex_keeps_another_worker_s_sweep_out_until_it_expires(redis_url):
    """An expired message is not given back by a sweep while a killed worker's mutex is held, and is once it expires."""
    client = redis.Redis.from_url(redis_url)
    client.flushdb()
    options = {"visibility_timeout": 0, "unacked_mutex_expire": 0.5}
    with kombu.Connection(redis_url, transport_options=options) as conn:
        queue = conn.SimpleQueue("sweep-mutex")
        queue.put(1)
        queue.get(timeout=5)  # delivered, never acknowledged
        qos = queue.channel.qos
        killed = Mutex(client, qos.unacked_mutex_key, qos.unacked_mutex_expire)
        killed.__enter__()
        qos.restore_visible(num=None, interval=1)
        during = client.llen("sweep-mutex")
        time.sleep(0.6)
        qos.restore_visible(num=None, interval=1)
        after = client.llen("sweep-mutex")
        del killed
        client.flushdb()
    assert (during, after) == (0, 1)
