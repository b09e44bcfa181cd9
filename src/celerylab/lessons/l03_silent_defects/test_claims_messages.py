"""The unregistered task and JSON arguments, as lesson 03 measures them on a prefork worker."""
from __future__ import annotations

import decimal

import pytest
from celery import chain
from kombu.exceptions import EncodeError

from celerylab.lessons.l03_silent_defects import helpers, tasks
from celerylab.stack import WorkerSpec

pytestmark = pytest.mark.live


def raised(call) -> str | None:
    """The class name of what `call()` raises, None when it returns (so a claim can observe it)."""
    try:
        call()
    except Exception as error:  # noqa: BLE001 - observed, then asserted on
        return type(error).__name__
    return None


def test_unregistered_task_fails_and_its_message_is_gone(stack, observe):
    worker = stack.workers[0]
    offset = worker.log_offset()
    result = stack.app.send_task("data.backup_db", ("school",))
    logged = helpers.log_after(worker, "Received unregistered task", offset, lines=2)
    observe(log_says_discarded="discarded" in logged[1])
    assert "discarded" in logged[1]
    result.get(timeout=10, propagate=False)
    message = helpers.where_is(stack, result.id)
    observe(state=result.state, result=type(result.result).__name__, message=message)
    assert result.state == "FAILURE" and type(result.result).__name__ == "NotRegistered"
    assert message == "gone"


def test_a_caller_without_backend_sees_nothing(stack, observe):
    result = helpers.producer_without_backend(stack).send_task("data.backup_db", ("school",))
    observe(state_raises=raised(lambda: result.state), get_raises=raised(lambda: result.get(timeout=1)))
    with pytest.raises(AttributeError):
        result.state
    with pytest.raises(NotImplementedError):
        result.get(timeout=1)


def test_autodiscover_finds_only_the_tasks_module(observe):
    found = helpers.registered_after_each(["app.autodiscover_tasks([SHOP])",
                                           "app.autodiscover_tasks([SHOP], related_name='scheduled')"])
    observe(default_related_name=found[0], related_name_scheduled=found[1])
    assert found == [["data.cleanup"], ["data.backup_db"]]


def test_json_round_trip(stack, observe):
    observe(set_in_delay_raises=raised(lambda: tasks.describe.delay({3, 7})))
    with pytest.raises(EncodeError):
        tasks.describe.delay({3, 7})
    arrived = {label: stack.app.send_task("l03.describe", (value,)).get(timeout=10)
               for label, value in (("int_key", {1: "a"}), ("tuple", (1, 2)), ("decimal", decimal.Decimal("1.10")))}
    observe(**arrived)
    assert arrived["int_key"] == "{'1': str 'a'}"
    assert arrived["tuple"] == "[int 1, int 2]"
    assert arrived["decimal"] == "Decimal Decimal('1.10')"


def test_unserializable_return_is_a_failure(stack, observe):
    result = stack.app.send_task("l03.returns", ("set",))
    result.get(timeout=10, propagate=False)
    observe(state=result.state, result=type(result.result).__name__)
    assert result.state == "FAILURE" and isinstance(result.result, EncodeError)


@pytest.mark.parametrize("args,options,pattern", [
    (({"__type__": "x", "__value__": 1},), {}, r"Can't decode message body"),
    (({1, 2},), {"serializer": "pickle"}, r"Refusing to deserialize untrusted content of type pickle"),
])
def test_undecodable_messages_are_dropped_and_stay_pending(stack, observe, args, options, pattern):
    worker = stack.workers[0]
    offset = worker.log_offset()
    result = stack.app.send_task("l03.describe", args, **options)
    helpers.log_after(worker, pattern, offset)
    message = helpers.where_is(stack, result.id)
    observe(state=result.state, message=message)
    assert result.state == "PENDING" and message == "gone"


def test_a_worker_without_backend_leaves_a_caller_with_one_pending(stack, observe):
    bare = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("nobackend",),
                                       settings={"result_backend": None}))
    offset = bare.log_offset()
    result = stack.app.send_task("data.backup_db", ("school",), queue="nobackend")
    logged = helpers.log_after(bare, "Received unregistered task", offset)
    state = helpers.wait_state(result, ("FAILURE",), timeout=3)
    message = helpers.where_is(stack, result.id, "nobackend")
    observe(logged_unregistered=bool(logged), state=state, message=message)
    assert logged and message == "gone"
    assert state == "PENDING"  # a worker with a backend stores FAILURE NotRegistered


def test_a_set_result_stops_an_s_callback_and_not_an_si_one(stack, observe):
    worker = stack.workers[0]
    sent = {}
    for kind, make in (("s", tasks.after.s), ("si", tasks.after.si)):
        last = chain(tasks.returns.s("set"), make()).apply_async()
        sent[f"chain_{kind}"] = (last.parent, last.id)
        callback = make()
        callback.freeze()
        sent[f"link_{kind}"] = (tasks.returns.apply_async(("set",), link=callback), callback.id)
    for parent, _ in sent.values():
        parent.get(timeout=10, propagate=False)
    after = {label: helpers.wait_state(stack.app.AsyncResult(after_id), ("SUCCESS",), timeout=3)
             for label, (_, after_id) in sent.items()}
    received = {label: f"l03.after[{after_id}] received" in worker.logs for label, (_, after_id) in sent.items()}
    parents = {label: (parent.state, type(parent.result).__name__) for label, (parent, _) in sent.items()}
    observe(parents=parents, after_received=received, after_state=after)
    assert set(parents.values()) == {("FAILURE", "EncodeError")}
    assert received == {"chain_s": False, "link_s": False, "chain_si": True, "link_si": True}
    assert after["chain_si"] == after["link_si"] == "SUCCESS"
    assert after["chain_s"] == "FAILURE" and after["link_s"] == "PENDING"  # a chain marks the step it never sent
