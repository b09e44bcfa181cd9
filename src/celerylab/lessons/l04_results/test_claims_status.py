"""What the backend says about a task: PENDING for expired and invented ids, TTL truncation, STARTED, key growth."""
from __future__ import annotations

import math

import pytest
from celery.exceptions import TimeoutError as CeleryTimeoutError

from celerylab.lessons.l04_results import helpers
from celerylab.lessons.l04_results.experiments.api_states import api_states
from celerylab.lessons.l04_results.experiments.call_ignore_result import call_ignore_result
from celerylab.lessons.l04_results.experiments.exists_check import exists_check
from celerylab.lessons.l04_results.experiments.expired_result import expired_result
from celerylab.lessons.l04_results.experiments.no_expiry import no_expiry
from celerylab.lessons.l04_results.experiments.started_expires import started_expires
from celerylab.lessons.l04_results.experiments.track_started import track_started
from celerylab.lessons.l04_results.experiments.ttl_values import ttl_values
from celerylab.lessons.l04_results.experiments.worker_ttl import worker_ttl

pytestmark = pytest.mark.live


def test_the_notes_endpoint_shows_pending_then_success_and_progress(http, observe):
    seen = api_states(http)
    signups = {name: [state for state, _ in seen.answers[name]] for name in ("ana", "bruno")}
    steps = seen.progress("report")  # every step read, in reading order
    # Whether the first read comes before a 0.2 s sign-up ends is timing (a loaded machine reads SUCCESS at once):
    # what the route shows is PENDING for as long as it shows anything before SUCCESS, and never STARTED.
    observe.that(signups_read_only_pending_then_success=all(
                     reads in (["PENDING", "SUCCESS"], ["SUCCESS"]) for reads in signups.values()),
                 report_read_pending_progress_success=seen.states("report") in (["PENDING", "PROGRESS", "SUCCESS"],
                                                                                ["PROGRESS", "SUCCESS"]),
                 # a loaded machine's poll round can outlast one step: every step read is one of 1-5, in order
                 progress_read_in_order_within_1_to_5=bool(steps) and set(steps) <= {1, 2, 3, 4, 5}
                 and steps == sorted(steps),
                 why=f"sign-ups read {signups}, the report read {seen.answers['report']}")
    assert all(answer[1] is None for name in ("ana", "bruno") for answer in seen.answers[name]), seen


@pytest.mark.needs("real-redis")  # fakeredis expires up to 1 s early
def test_an_expired_result_and_an_invented_id_both_read_pending(stack, http, observe):
    incident = expired_result(stack, http)
    # the TTL left when the page reads it, in whole seconds rounded up: the setting while less than 1 s has passed
    observe.equal(kept_state=(incident.state, "SUCCESS"), ttl=(math.ceil(incident.ttl_ms / 1000), helpers.RESULT_EXPIRES))
    # an order, not a time bound: the route says PENDING again only once the key's own TTL has run out
    observe.that(reads_pending_again=incident.endpoint_now["status"] == "PENDING",
                 pending_only_once_the_ttl_ran_out=incident.pending_after_ttl,
                 why=f"read PENDING {incident.pending_after:.3f} s after SUCCESS, the key's TTL was {incident.ttl_ms} ms")
    observe.equal(kept_object=(list(incident.kept_object), ["SUCCESS", {"status": "sent", "to": "bia@example.com"}]),
                  fresh_object=(incident.fresh_object, "PENDING"))
    observe.equal(invented_id=(incident.invented_endpoint, "PENDING"))
    observe.equal(get_invented_raises=(incident.get_invented.rpartition(".")[2], CeleryTimeoutError.__name__))


@pytest.mark.needs("real-redis")  # fakeredis expires up to 1 s early
def test_result_expires_is_truncated_and_below_one_second_never_expires(stack, observe):
    ttls = {str(row["result_expires"]): row["ttl"] for row in ttl_values(stack).rows}
    observe.equal(ttl=(ttls, {"1 day, 0:00:00": 86400, "3": 3, "2.7": 2, "1.5": 1, "0.5": -1, "0": -1, "None": -1}))


@pytest.mark.needs("real-redis")  # fakeredis expires up to 1 s early
def test_a_real_worker_truncates_too(stack, observe):
    stored = worker_ttl(stack, result_expires=2.7)
    observe.equal(result=(stored.result, 2), ttl=(stored.ttl, 2))


def test_started_only_with_task_track_started(stack, observe):
    seen = track_started(stack)
    observe.equal(track_started_off=(seen.off, ["PENDING", "SUCCESS"]),
                  track_started_on=(seen.on, ["PENDING", "STARTED", "SUCCESS"]))


def test_started_expires_too_when_a_task_outlives_result_expires(stack, observe):
    observe.equal(states=(started_expires(stack).states, ["PENDING", "STARTED", "PENDING", "SUCCESS"]))


def test_results_without_expiry_pile_up_and_nothing_cleans_them(stack, observe):
    growth = no_expiry(stack)
    observe.equal(keys_after_50_tasks=(growth.after_50_tasks[0], 50), ttls_after_50_tasks=(growth.after_50_tasks[1], [-1]))
    observe.equal(keys_after_one_forget=(growth.after_one_forget[0], 49))
    assert growth.after_one_forget[1] == [-1]
    observe.equal(keys_of_10_ignore_result_tasks=(growth.ignore_result_10_tasks[0], 0))
    assert growth.ignore_result_10_tasks[1] == []
    observe.equal(supports_autoexpire=(growth.supports_autoexpire, True),
                  beat_installs_backend_cleanup=(growth.beat_installs_backend_cleanup, False))


@pytest.mark.needs("real-redis")  # fakeredis expires up to 1 s early
def test_a_failure_gets_result_failure_expires_as_its_ttl(stack, observe):
    observe.equal(ttl=(ttl_values(stack).failure_ttls, {"SUCCESS": helpers.RESULT_EXPIRES, "FAILURE": 60}))


def test_exists_tells_a_stored_result_from_no_key_only(stack, observe):
    checked = exists_check(stack)
    observe(states=checked.states)
    observe.equal(exists=(checked.exists, {"stored": True, "queued": False, "expired": False, "invented": False}))


def test_a_call_can_ask_for_the_result_a_task_ignores(stack, observe):
    observe.equal(state=(call_ignore_result(stack).states, {"ignore_result=False": "SUCCESS", "no option": "PENDING"}))
