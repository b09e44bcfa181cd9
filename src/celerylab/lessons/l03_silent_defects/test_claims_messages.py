"""The unregistered task and JSON arguments, as lesson 03 measures them on a prefork worker."""
from __future__ import annotations

import decimal

import pytest
from kombu.exceptions import EncodeError

from celerylab.lessons.l03_silent_defects import helpers, tasks

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def stack():
    with helpers.start() as running:
        yield running


def test_unregistered_task_fails_and_its_message_is_gone(stack):
    worker = stack.workers[0]
    offset = worker.log_offset()
    result = stack.app.send_task("data.backup_db", ("school",))
    assert "discarded" in helpers.log_after(worker, "Received unregistered task", offset, lines=2)[1]
    result.get(timeout=10, propagate=False)
    assert result.state == "FAILURE" and type(result.result).__name__ == "NotRegistered"
    assert helpers.where_is(stack, result.id) == "gone"


def test_a_caller_without_backend_sees_nothing(stack):
    result = helpers.producer_without_backend(stack).send_task("data.backup_db", ("school",))
    with pytest.raises(AttributeError):
        result.state
    with pytest.raises(NotImplementedError):
        result.get(timeout=1)


def test_autodiscover_finds_only_the_tasks_module():
    found = helpers.registered_after_each(["app.autodiscover_tasks([SHOP])",
                                           "app.autodiscover_tasks([SHOP], related_name='scheduled')"])
    assert found == [["data.cleanup"], ["data.backup_db"]]


def test_json_round_trip(stack):
    with pytest.raises(EncodeError):
        tasks.describe.delay({3, 7})
    assert stack.app.send_task("l03.describe", ({1: "a"},)).get(timeout=10) == "{'1': str 'a'}"
    assert stack.app.send_task("l03.describe", ((1, 2),)).get(timeout=10) == "[int 1, int 2]"
    described = stack.app.send_task("l03.describe", (decimal.Decimal("1.10"),)).get(timeout=10)
    assert described == "Decimal Decimal('1.10')"


def test_unserializable_return_is_a_failure(stack):
    result = stack.app.send_task("l03.returns", ("set",))
    result.get(timeout=10, propagate=False)
    assert result.state == "FAILURE" and isinstance(result.result, EncodeError)


@pytest.mark.parametrize("args,options,pattern", [
    (({"__type__": "x", "__value__": 1},), {}, r"Can't decode message body"),
    (({1, 2},), {"serializer": "pickle"}, r"Refusing to deserialize untrusted content of type pickle"),
])
def test_undecodable_messages_are_dropped_and_stay_pending(stack, args, options, pattern):
    worker = stack.workers[0]
    offset = worker.log_offset()
    result = stack.app.send_task("l03.describe", args, **options)
    helpers.log_after(worker, pattern, offset)
    assert result.state == "PENDING" and helpers.where_is(stack, result.id) == "gone"
