"""Routed queues let the welcome e-mail overtake heavy reports; prefetch starvation per worker setting."""
from __future__ import annotations

import time

import pytest

from celerylab.lessons.l06_architecture import helpers, scenarios, tasks

pytestmark = pytest.mark.live
REPORT = ([1, 2, 3, 4], "2026-11", 0.5)


@pytest.fixture(scope="module")
def stack():
    with helpers.start(flower=False) as stack:
        yield stack


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


def test_api_publishes_the_welcome_to_priority(stack):
    api = helpers.api(stack)
    task_id = api.post("/users/register", json={"name": "Ana", "email": "ana@example.com"}).json()["task_id"]
    result = tasks.send_welcome.AsyncResult(task_id)
    result.get(timeout=10)
    assert (result.queue, result.worker) == ("priority", "celery@priority")


def test_welcome_waits_behind_reports_on_one_queue_not_when_routed(stack):
    shared, shared_queue = welcome_wait(stack, queue="default")
    routed, routed_queue = welcome_wait(stack)
    assert (shared_queue, routed_queue) == ("default", "priority")
    assert shared > 1.0, shared
    assert routed < 0.5, routed


def test_prefetch_starvation_per_setting(stack):
    queues = scenarios.add_pairs(stack, scenarios.PREFETCH_CASES)
    counts = scenarios.prefetch_counts(stack, queues)
    assert counts == {"default": 4, "multiplier_1": 1, "multiplier_1_acks_late": 1, "disable_prefetch": 4}
    measured = scenarios.bursts(stack, queues)
    for case in ("default", "multiplier_1"):
        run = measured[case]
        assert run["behind_long"] >= 1 and max(run["waits"].values()) > 1.0, (case, run)
    assert measured["multiplier_1"]["behind_long"] == 1, measured["multiplier_1"]
    for case in ("multiplier_1_acks_late", "disable_prefetch"):
        run = measured[case]
        assert run["behind_long"] == 0 and max(run["waits"].values()) < 0.7, (case, run)
    scenarios.stop_pairs(stack)


def test_fair_is_the_default_scheduling_strategy():
    from celery.concurrency.asynpool import SCHED_STRATEGIES

    assert SCHED_STRATEGIES["default"] == SCHED_STRATEGIES["fair"] == SCHED_STRATEGIES[None]
