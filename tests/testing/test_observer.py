"""The `observe` fixture's recording asserts: recorded before failing, failures named, passing when true."""
from __future__ import annotations

import datetime

import pytest

from celerylab.testing.claims import plain
from celerylab.testing.observer import Observer


@pytest.fixture
def recorded():
    return {}


@pytest.fixture
def observe(recorded):
    return Observer(lambda values: recorded.update({name: plain(value) for name, value in values.items()}))


def test_plain_call_records_without_asserting(observe, recorded):
    observe(runs=0, ok=False)
    assert recorded == {"runs": 0, "ok": False}


def test_that_records_each_condition_as_given_and_passes_when_true(observe, recorded):
    observe.that(done=True, some=[1], why="never shown")
    assert recorded == {"done": True, "some": [1]}


def test_that_records_before_it_fails_and_names_only_the_false_condition_with_why(observe, recorded):
    with pytest.raises(AssertionError) as failed:
        observe.that(first=True, back_in_time=False, why={"gaps": [4.2]})
    assert recorded == {"first": True, "back_in_time": False}
    message = str(failed.value)
    assert message.splitlines()[0] == "back_in_time is False: {'gaps': [4.2]}"
    assert "first" not in message


def test_equal_records_the_measured_value_as_the_old_form_did(observe, recorded):
    old = {}
    Observer(lambda values: old.update({n: plain(v) for n, v in values.items()}))(
        when=datetime.date(2026, 1, 2), pair=(1, "a"))
    observe.equal(when=(datetime.date(2026, 1, 2), datetime.date(2026, 1, 2)), pair=((1, "a"), (1, "a")))
    assert recorded == old == {"when": "datetime.date(2026, 1, 2)", "pair": [1, "a"]}


def test_equal_records_every_pair_before_it_fails_and_shows_the_difference(observe, recorded):
    with pytest.raises(AssertionError) as failed:
        observe.equal(runs=(2, 1), states=(["SUCCESS", "RETRY"], ["SUCCESS", "SUCCESS"]), state=("OK", "OK"))
    assert recorded == {"runs": 2, "states": ["SUCCESS", "RETRY"], "state": "OK"}
    message = str(failed.value)
    assert message.splitlines()[0] == "runs: 2 != 1"
    assert "states: ['SUCCESS', 'RETRY'] != ['SUCCESS', 'SUCCESS']" in message
    assert "- ['SUCCESS', 'SUCCESS']" in message and "+ ['SUCCESS', 'RETRY']" in message
    assert "state:" not in message


def test_equal_refuses_a_value_that_is_not_a_pair(observe, recorded):
    with pytest.raises(TypeError, match=r"observe.equal\(runs=...\) takes \(measured, expected\)"):
        observe.equal(runs=3)
    assert recorded == {}


def test_equal_shows_why_after_the_mismatches_and_not_when_all_hold(observe, recorded):
    observe.equal(done=(True, True), why="never shown")
    with pytest.raises(AssertionError) as failed:
        observe.equal(done=(False, True), why="gaps [4.2]")
    assert str(failed.value).splitlines() == ["done: False != True", "why: gaps [4.2]"]
