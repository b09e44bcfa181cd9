"""The unregistered task and JSON arguments, as lesson 03 measures them on a prefork worker."""
from __future__ import annotations

import decimal

import pytest
from celery import chain

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
    observe.that(log_says_discarded="discarded" in logged[1], why=f"the worker logged {logged!r}")
    result.get(timeout=10, propagate=False)
    message = helpers.where_is(stack, result.id)
    observe.equal(state=(result.state, "FAILURE"), result=(type(result.result).__name__, "NotRegistered"),
                  message=(message, "gone"))


def test_a_caller_without_backend_sees_nothing(stack, observe):
    result = helpers.producer_without_backend(stack).send_task("data.backup_db", ("school",))
    observe.equal(state_raises=(raised(lambda: result.state), "AttributeError"),
                  get_raises=(raised(lambda: result.get(timeout=1)), "NotImplementedError"))


def test_autodiscover_finds_only_the_tasks_module(observe):
    found = helpers.registered_after_each(["app.autodiscover_tasks([SHOP])",
                                           "app.autodiscover_tasks([SHOP], related_name='scheduled')"])
    observe.equal(default_related_name=(found[0], ["data.cleanup"]),
                  related_name_scheduled=(found[1], ["data.backup_db"]))


def test_json_round_trip(stack, observe):
    observe.equal(set_in_delay_raises=(raised(lambda: tasks.describe.delay({3, 7})), "EncodeError"))
    arrived = {label: stack.app.send_task("l03.describe", (value,)).get(timeout=10)
               for label, value in (("int_key", {1: "a"}), ("tuple", (1, 2)), ("decimal", decimal.Decimal("1.10")))}
    observe.equal(int_key=(arrived["int_key"], "{'1': str 'a'}"), tuple=(arrived["tuple"], "[int 1, int 2]"),
                  decimal=(arrived["decimal"], "Decimal Decimal('1.10')"))


def test_unserializable_return_is_a_failure(stack, observe):
    result = stack.app.send_task("l03.returns", ("set",))
    result.get(timeout=10, propagate=False)
    observe.equal(state=(result.state, "FAILURE"), result=(type(result.result).__name__, "EncodeError"))


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
    observe.equal(state=(result.state, "PENDING"), message=(message, "gone"))


def test_a_worker_without_backend_leaves_a_caller_with_one_pending(stack, observe):
    bare = stack.add_worker(WorkerSpec(pool="prefork", concurrency=1, queues=("nobackend",),
                                       settings={"result_backend": None}))
    offset = bare.log_offset()
    result = stack.app.send_task("data.backup_db", ("school",), queue="nobackend")
    logged = helpers.log_after(bare, "Received unregistered task", offset)
    state = helpers.wait_state(result, ("FAILURE",), timeout=3)
    message = helpers.where_is(stack, result.id, "nobackend")
    # a worker with a backend stores FAILURE NotRegistered
    observe.equal(logged_unregistered=(bool(logged), True), state=(state, "PENDING"), message=(message, "gone"))


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
    observe(parents=parents)
    observe.equal(after_received=(received, {"chain_s": False, "link_s": False, "chain_si": True, "link_si": True}),
                  # a chain marks the step it never sent
                  after_state=(after, {"chain_s": "FAILURE", "link_s": "PENDING", "chain_si": "SUCCESS",
                                       "link_si": "SUCCESS"}))
    assert set(parents.values()) == {("FAILURE", "EncodeError")}
