"""Lesson 07's read of the orders waiting in the broker that can vanish unconsumed (a message deadline, a list TTL)."""
from __future__ import annotations

import base64
import json
from types import SimpleNamespace

import fakeredis
import pytest

from celerylab.lessons.l07_resilience import helpers

STACK = SimpleNamespace(namespace="t:")


def message(order: int, task: str = "l07.place_order", expires: str | None = None,
            expiration: float | None = None) -> str:
    """A message as kombu's Redis transport stores it: JSON with a base64 body [args, kwargs, embed]."""
    body = base64.b64encode(json.dumps([[order], {}, {}]).encode()).decode()
    properties = {"body_encoding": "base64", **({"expiration": expiration} if expiration is not None else {})}
    return json.dumps({"body": body, "headers": {"task": task, "expires": expires}, "properties": properties})


@pytest.fixture
def broker(monkeypatch):
    server = fakeredis.FakeServer()
    monkeypatch.setattr(helpers, "keys", lambda stack: fakeredis.FakeRedis(server=server))
    return fakeredis.FakeRedis(server=server)


def test_orders_without_a_deadline_are_not_expiring(broker):
    broker.lpush("t:celery", message(1), message(2))
    assert helpers.expiring_orders(STACK) == []


def test_an_expires_header_or_an_expiration_property_marks_only_that_order(broker):
    broker.lpush("t:celery", message(1), message(2, expires="2026-12-07T10:00:00+00:00"), message(3, expiration=3600))
    broker.lpush("t:celery", message(4, task="l07.other", expires="2026-12-07T10:00:00+00:00"))
    assert sorted(helpers.expiring_orders(STACK)) == [2, 3]


def test_a_ttl_on_the_queue_list_marks_every_order_in_it(broker):
    broker.lpush("t:celery", message(1), message(2))
    broker.pexpire("t:celery", 3_600_000)
    assert sorted(helpers.expiring_orders(STACK)) == [1, 2]
