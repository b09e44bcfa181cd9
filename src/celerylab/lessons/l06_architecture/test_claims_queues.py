"""Routed queues let the welcome e-mail overtake heavy reports; prefetch starvation per worker setting."""
from __future__ import annotations

import gc
import time

import pytest

from celerylab.lessons.l06_architecture import helpers, lone_worker, scenarios, tasks

pytestmark = pytest.mark.live
REPORT = ([1, 2, 3, 4], "2026-11", 0.5)


@pytest.fixture(scope="module")
def stack():
    with helpers.start(flower=False) as stack:
        yield stack
        gc.collect()  # the module's results reclaimed while Redis is up (before Celery 5.7, each one later waits ~19 s)


def welcome_wait(stack, **options) -> tuple[float, str]:
    reports = [tasks.build_pdf.apply_async(REPORT, **options) for _ in range(2)]
    for report in reports:
        assert scenarios.received_by(stack, report)
    sent = time.time()
    welcome = tasks.send_welcome.apply_async(("bia@example.com", "Bia"), **options)
    wait = helpers.welcome_wait(welcome, sent)
    for report in reports:
        report.get(timeout=30)
    return wait, welcome.queue


def test_api_publishes_the_welcome_to_priority(stack, observe):
    api = helpers.api(stack)
    task_id = api.post("/users/register", json={"name": "Ana", "email": "ana@example.com"}).json()["task_id"]
    result = tasks.send_welcome.AsyncResult(task_id)
    result.get(timeout=10)
    observe.equal(queue=(result.queue, "priority"), worker=(result.worker, "celery@priority"))


def test_welcome_waits_behind_reports_on_one_queue_not_when_routed(stack, observe):
    shared, shared_queue = welcome_wait(stack, queue="default")
    routed, routed_queue = welcome_wait(stack)
    observe.equal(shared_queue=(shared_queue, "default"), routed_queue=(routed_queue, "priority"),
                  shared_waited_over_1_s=(shared > 1.0, True), routed_waited_under_half_s=(routed < 0.5, True),
                  why=f"the welcome waited {shared:.2f} s on one queue, {routed:.2f} s routed")


def test_prefetch_starvation_per_setting(stack, observe):
    queues = scenarios.add_pairs(stack, scenarios.PREFETCH_CASES)
    counts = scenarios.prefetch_counts(stack, queues)
    observe.equal(prefetch_count=(counts, {"default": 4, "multiplier_1": 1, "multiplier_1_acks_late": 1,
                                           "disable_prefetch": 4}))
    measured = scenarios.bursts(stack, queues)
    # per case: "stuck" (a short task ran after the long one on its worker and waited over 1 s), "none" (none ran
    # there, every wait under 0.7 s), else "mixed"; multiplier 1 also by its count
    behind_long = {case: "stuck" if run["behind_long"] >= 1 and max(run["waits"].values()) > 1.0
                   else "none" if run["behind_long"] == 0 and max(run["waits"].values()) < 0.7
                   else "mixed" for case, run in measured.items()}
    observe.equal(short_tasks_behind_long=(behind_long, {"default": "stuck", "multiplier_1": "stuck",
                                                         "multiplier_1_acks_late": "none", "disable_prefetch": "none"}),
                  multiplier_1_behind_long=(measured["multiplier_1"]["behind_long"], 1), why=measured)
    scenarios.stop_pairs(stack)


def test_a_lone_busy_worker_keeps_short_tasks_behind_the_long_ones_whatever_the_prefetch(stack, observe):
    routes = lone_worker.add_workers(stack)
    measured = lone_worker.peaks(stack, routes)
    lone_worker.stop_workers(stack)
    behind = lone_worker.LONG * 1.5  # the second round of long tasks ends at 2 × LONG: every short one waits past it
    lone = ("default", "multiplier_1_acks_late", "fair", "disable_prefetch")
    shortest = {case: min(run["waits"].values()) for case, run in measured.items()}
    longest = {case: max(run["waits"].values()) for case, run in measured.items()}
    observe.equal(lone_worker_short_tasks_wait_two_long_ones=({case: shortest[case] > behind for case in lone},
                                                              {case: True for case in lone}),
                  routed_short_tasks_wait_under_half_a_long_one=(longest["routed"] < lone_worker.LONG / 2, True),
                  two_workers_wait_less_than_any_lone_case=(longest["two_workers"]
                                                            < min(shortest[case] for case in lone), True),
                  two_workers_ran_the_long_ones_on=(measured["two_workers"]["workers"], 2), why=measured)


def test_fair_is_the_default_scheduling_strategy(observe):
    from celery.concurrency.asynpool import SCHED_STRATEGIES

    fair = SCHED_STRATEGIES["fair"]
    observe(strategy_fair=fair)
    observe.equal(strategy_none=(SCHED_STRATEGIES[None], fair), strategy_default=(SCHED_STRATEGIES["default"], fair))
