"""The unregistered task and JSON arguments, as lesson 03's experiments measure them on a prefork worker."""
from __future__ import annotations

import pytest

from celerylab.lessons.l03_silent_defects.experiments.autodiscover import autodiscover
from celerylab.lessons.l03_silent_defects.experiments.envelope_spoof import envelope_spoof
from celerylab.lessons.l03_silent_defects.experiments.json_round_trip import json_round_trip
from celerylab.lessons.l03_silent_defects.experiments.no_backend_producer import no_backend_producer
from celerylab.lessons.l03_silent_defects.experiments.no_backend_worker import no_backend_worker
from celerylab.lessons.l03_silent_defects.experiments.pickle_refused import pickle_refused
from celerylab.lessons.l03_silent_defects.experiments.set_callbacks import set_callbacks
from celerylab.lessons.l03_silent_defects.experiments.set_result import set_result
from celerylab.lessons.l03_silent_defects.experiments.unregistered import unregistered

pytestmark = pytest.mark.live


def test_unregistered_task_fails_and_its_message_is_gone(stack, observe):
    lost = unregistered(stack, stack.workers[0])
    observe.that(log_says_discarded="discarded" in lost.logged[1], why=f"the worker logged {lost.logged[:2]!r}")
    observe.equal(state=(lost.state, "FAILURE"), result=(type(lost.result).__name__, "NotRegistered"),
                  message=(lost.message, "gone"))


def test_a_caller_without_backend_sees_nothing(stack, observe):
    raised = {name: type(error).__name__ for name, error in no_backend_producer(stack, stack.workers[0]).raised.items()}
    observe.equal(state_raises=(raised.get("state"), "AttributeError"), get_raises=(raised.get("get"),
                                                                                     "NotImplementedError"))


def test_autodiscover_finds_only_the_tasks_module(observe):
    found = autodiscover().registered
    observe.equal(default_related_name=(found["app.autodiscover_tasks([SHOP])"], ["data.cleanup"]),
                  related_name_scheduled=(found["app.autodiscover_tasks([SHOP], related_name='scheduled')"],
                                          ["data.backup_db"]))


def test_json_round_trip(stack, observe):
    trip = json_round_trip()
    observe.equal(set_in_delay_raises=(type(trip.failed.get("{3, 7}")).__name__, "EncodeError"))
    observe.equal(int_key=(trip.arrived["{1: 'a'}"], "{'1': str 'a'}"), tuple=(trip.arrived["(1, 2)"], "[int 1, int 2]"),
                  decimal=(trip.arrived["Decimal('1.10')"], "Decimal Decimal('1.10')"))


def test_unserializable_return_is_a_failure(stack, observe):
    returned = set_result(stack.workers[0])
    observe.equal(state=(returned.state, "FAILURE"), result=(type(returned.result).__name__, "EncodeError"))


@pytest.mark.parametrize("experiment", [envelope_spoof, pickle_refused], ids=["envelope", "pickle"])
def test_undecodable_messages_are_dropped_and_stay_pending(stack, observe, experiment):
    dropped = experiment(stack, stack.workers[0])
    observe.equal(state=(dropped.state, "PENDING"), message=(dropped.message, "gone"))


def test_a_worker_without_backend_leaves_a_caller_with_one_pending(stack, observe):
    bare = no_backend_worker(stack)
    # a worker with a backend stores FAILURE NotRegistered
    observe.equal(logged_unregistered=(bool(bare.logged), True), state=(bare.state, "PENDING"),
                  message=(bare.message, "gone"))


def test_a_set_result_stops_an_s_callback_and_not_an_si_one(stack, observe):
    rows = {label.replace(" .", "_").removesuffix("()"): row
            for label, row in set_callbacks(stack, stack.workers[0]).rows.items()}
    parents = {label: row["parent"] for label, row in rows.items()}
    observe(parents=parents)
    observe.equal(after_received=({label: row["after_received"] for label, row in rows.items()},
                                  {"chain_s": False, "link_s": False, "chain_si": True, "link_si": True}),
                  # a chain marks the step it never sent
                  after_state=({label: row["after"] for label, row in rows.items()},
                               {"chain_s": "FAILURE", "link_s": "PENDING", "chain_si": "SUCCESS",
                                "link_si": "SUCCESS"}))
    assert set(parents.values()) == {"FAILURE EncodeError"}
