"""Chain and chord failures, Flower's auth and Prometheus counters, ids versus objects, time limits, task-id logging."""
from __future__ import annotations

import gc

import pytest

from celerylab.lessons.l06_architecture import helpers
from celerylab.lessons.l06_architecture.experiments.chain_failure import chain_failure
from celerylab.lessons.l06_architecture.experiments.chord_errbacks import chord_errbacks
from celerylab.lessons.l06_architecture.experiments.chord_failure import chord_failure
from celerylab.lessons.l06_architecture.experiments.flower_auth import flower_auth
from celerylab.lessons.l06_architecture.experiments.flower_events import flower_events
from celerylab.lessons.l06_architecture.experiments.flower_metrics import flower_metrics
from celerylab.lessons.l06_architecture.experiments.flower_open import flower_open
from celerylab.lessons.l06_architecture.experiments.invoice_ids import invoice_ids
from celerylab.lessons.l06_architecture.experiments.task_logging import task_logging
from celerylab.lessons.l06_architecture.experiments.time_limits import time_limits

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def stack():
    with helpers.start(flower=True) as stack:
        yield stack
        gc.collect()  # the module's results reclaimed while Redis is up (before Celery 5.7, each one later waits ~19 s)


@pytest.fixture(scope="module")
def canvas(stack):
    return chord_failure()


def test_a_failed_step_fails_the_rest_of_the_chain(stack, observe):
    steps = chain_failure().steps  # in the chain's order: validate, transform, insert, notify
    observe.equal(states=([step.bad_state for step in steps], ["FAILURE"] * 4),
                  errors=([step.bad_result.split("(")[0] for step in steps], ["ValueError"] * 4))


def test_a_failed_member_leaves_the_callback_with_a_chord_error(canvas, observe):
    observe.equal(callback_state=(canvas.callback_state, "FAILURE"),
                  callback_error=(canvas.callback_error.split("(")[0], "ChordError"),
                  error_names_chunk_13=("chunk 13" in canvas.callback_error, True),
                  members=(canvas.members, ["SUCCESS", "SUCCESS", "FAILURE", "SUCCESS"]),
                  why=f"the callback's result: {canvas.callback_error}")


def test_a_failed_member_fails_a_group_body_too(canvas, observe):
    """A chord whose body is a group: when a member fails, every task of the body is failed with its error (Celery 5.7)."""
    # booleans, not the states: on 5.6 the body's revoke races with its FAILURE writes (REVOKED or FAILURE, per run)
    observe.equal(body_left_pending=("PENDING" in canvas.body_states, False),
                  body_failed_with_member_error=(all(state == "FAILURE" and error.startswith("ValueError")
                                                     for state, error in zip(canvas.body_states, canvas.body_errors)),
                                                 True),
                  why=f"the body's states: {canvas.body_states}")
    assert all("chunk 13" in error for error in canvas.body_errors)


def test_a_bound_errback_never_runs_and_replaces_the_chord_error(stack, observe):
    failed = chord_errbacks(stack)
    observe.equal(chord_results=({kind: run.chord_result for kind, run in failed.items()},
                                 {"plain": "ChordError", "bound": "TypeError"}),
                  errback_got=({kind: run.errback_got for kind, run in failed.items()},
                               {"plain": ["ChordError"], "bound": []}),
                  bound_error_says_missing_arguments=("missing 2 required positional arguments"
                                                      in failed["bound"].chord_repr, True))


def test_flower_asks_for_the_password_except_on_metrics(stack, observe):
    auth = flower_auth(stack)
    statuses = {path: auth.statuses[path] for path in ("/", "/api/workers", "/api/tasks")}
    observe.equal(without_and_with_auth=(statuses, {path: (401, 200) for path in statuses}),
                  metrics_without_auth=(auth.statuses["/metrics"][0], 200),
                  metrics_has_events_total=(auth.metrics_has_events_total, True))


def test_flower_turns_task_events_on_by_itself(observe):
    probe = flower_events()
    observe.equal(started_without_e=(probe.without_e, True), back_on_by_flower=(probe.events_back_on, True),
                  flower_saw_the_next_task=(probe.flower_saw_task, True))


def test_flower_without_any_auth_refuses_its_api_and_shows_its_ui(stack, observe):
    opened = flower_open(stack)
    api = {"GET /api/workers": "GET /api/workers", "GET /api/tasks": "GET /api/tasks",
           "POST /api/task/revoke": "POST /api/task/revoke/<id>",
           "POST /api/worker/shutdown": "POST /api/worker/shutdown/celery@default"}
    observe.equal(api=({label: opened.answers[path][0] for label, path in api.items()}, {label: 401 for label in api}),
                  ui=({path: opened.answers[f"GET {path}"][0] for path in ("/", "/metrics")}, {"/": 200, "/metrics": 200}),
                  task_page_shows_args=(opened.answers["GET /task/<id>"] == (200, True), True),
                  workers_alive=(opened.workers_alive, True))


@pytest.fixture(scope="module")
def counted(stack):
    return flower_metrics(stack)


def test_flower_workers_view_counts_tries_and_shows_no_retries(counted, observe):
    observe.equal(delta=(counted.workers_view, {"Processed": 18, "Failed": 3, "Succeeded": 5, "(task-retried)": 10}),
                  retried_column=(counted.retried_column, False),
                  dashboard_series=(counted.dashboard_series, {"flower_worker_online": True,
                                                               "flower_worker_number_of_currently_executing_tasks": True,
                                                               "flower_task_queuing_time_at_worker_seconds": False,
                                                               "flower_events_total": True}))


def test_flower_counts_events_per_try(counted, observe):
    counters = (("payment.capture", "task-received"), ("payment.capture", "task-retried"),
                ("payment.capture", "task-succeeded"), ("payment.refund", "task-received"), ("payment.refund", "task-failed"))
    counts = {f"{task.split('.')[1]}_{kind.removeprefix('task-')}": counted.events.get((task, kind))
              for task, kind in counters}
    expected = {"capture_retried": 10, "capture_received": 15, "refund_received": 3}
    observe(**{name: count for name, count in counts.items() if name not in expected})
    observe.equal(counted=(bool(counted.events), True), **{name: (counts[name], count) for name, count in expected.items()},
                  why=f"Flower's counters moved by {counted.events}")


def test_an_object_is_a_snapshot_an_id_reads_now(stack, observe):
    invoices = invoice_ids(stack, user_id=7)
    observe(object_plan=invoices.snapshot.rsplit(" ", 1)[-1], id_plan=invoices.by_id.rsplit(" ", 1)[-1])
    assert invoices.snapshot.endswith("plan free")
    assert invoices.by_id.endswith("plan pro")


@pytest.fixture(scope="module")
def limited(stack):
    return time_limits(stack)


def test_soft_then_hard_time_limit(limited, observe):
    tolerance = {False: ("soft", 1, "SoftTimeLimitExceeded", 0.9, 1.9), True: ("hard", 2, "TimeLimitExceeded", 1.9, 3.5)}
    pairs = {}
    for run in limited:
        limit, seconds, error, low, high = tolerance[run.stubborn]  # the limit's seconds; [low, high] its tolerance
        pairs.update({f"{limit}_state": (run.state, "FAILURE"), f"{limit}_error": (run.error, error),
                      f"{limit}_ended_near_{seconds}_s": (low <= run.seconds <= high, True)})
    observe.equal(**pairs, why=f"ended after {[round(run.seconds, 2) for run in limited]} s")


def test_flower_counts_each_time_limit_failure(limited, observe):
    """How many `task-failed` events Flower counts for one soft and one hard time limit (the hard one: twice on 5.7)."""
    counted = {"hard" if run.stubborn else "soft": run.failed_events for run in limited}
    observe.equal(soft_limit_task_failed_events=(counted["soft"], 1),
                  hard_limit_task_failed_events=(counted["hard"], 2))


def test_only_the_task_logger_names_the_task(stack, observe):
    logged = task_logging(stack)
    observe.equal(lines=(len(logged.lines), 3),
                  task_logger_names_task=(bool(logged.lines) and f"data.import_file[{logged.task_id}]" in logged.lines[0],
                                          True),
                  others_without_id=(all(logged.task_id not in line for line in logged.lines[1:]), True),  # notes' extra=
                  why=logged.lines)
