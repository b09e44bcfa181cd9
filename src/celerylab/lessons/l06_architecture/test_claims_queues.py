"""Routed queues let the welcome e-mail overtake heavy reports; prefetch starvation per worker setting."""
from __future__ import annotations

import gc

import pytest

from celerylab.lessons.l06_architecture import helpers
from celerylab.lessons.l06_architecture.experiments.api_welcome import api_welcome
from celerylab.lessons.l06_architecture.experiments.lone_worker import LONG, lone_worker
from celerylab.lessons.l06_architecture.experiments.prefetch_starvation import prefetch_starvation
from celerylab.lessons.l06_architecture.experiments.sched_strategies import sched_strategies
from celerylab.lessons.l06_architecture.experiments.welcome_behind_reports import welcome_behind_reports

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def stack():
    with helpers.start(flower=False) as stack:
        yield stack
        gc.collect()  # the module's results reclaimed while Redis is up (before Celery 5.7, each one later waits ~19 s)


def test_api_publishes_the_welcome_to_priority(stack, observe):
    welcome = api_welcome(stack)
    observe.equal(queue=(welcome.queue, "priority"), worker=(welcome.worker, "celery@priority"))


def test_welcome_waits_behind_reports_on_one_queue_not_when_routed(stack, observe):
    routing = welcome_behind_reports(stack)
    shared, routed = routing["shared"], routing["routed"]
    observe.equal(shared_queue=(shared.welcome_queue, "default"), routed_queue=(routed.welcome_queue, "priority"),
                  shared_waited_over_1_s=(shared.wait > 1.0, True), routed_waited_under_half_s=(routed.wait < 0.5, True),
                  why=f"the welcome waited {shared.wait:.2f} s on one queue, {routed.wait:.2f} s routed")


def test_prefetch_starvation_per_setting(stack, observe):
    measured = prefetch_starvation(stack)
    helpers.stop_workers(stack, "pf-")
    observe.equal(prefetch_count=(measured.prefetch_count, {"default": 4, "multiplier_1": 1,
                                                            "multiplier_1_acks_late": 1, "disable_prefetch": 4}))
    # per case: "stuck" (a short task ran after the long one on its worker and waited over 1 s), "none" (none ran
    # there, every wait under 0.7 s), else "mixed"; multiplier 1 also by its count
    behind_long = {case: "stuck" if run.behind_long >= 1 and max(run.waits.values()) > 1.0
                   else "none" if run.behind_long == 0 and max(run.waits.values()) < 0.7
                   else "mixed" for case, run in measured.bursts.items()}
    observe.equal(short_tasks_behind_long=(behind_long, {"default": "stuck", "multiplier_1": "stuck",
                                                         "multiplier_1_acks_late": "none", "disable_prefetch": "none"}),
                  multiplier_1_behind_long=(measured.bursts["multiplier_1"].behind_long, 1), why=measured)


def test_a_lone_busy_worker_keeps_short_tasks_behind_the_long_ones_whatever_the_prefetch(stack, observe):
    measured = lone_worker(stack).peaks
    behind = LONG * 1.5  # the second round of long tasks ends at 2 × LONG: every short one waits past it
    lone = ("default", "multiplier_1_acks_late", "fair", "disable_prefetch")
    shortest = {case: min(run.waits.values()) for case, run in measured.items()}
    longest = {case: max(run.waits.values()) for case, run in measured.items()}
    observe.equal(lone_worker_short_tasks_wait_two_long_ones=({case: shortest[case] > behind for case in lone},
                                                              {case: True for case in lone}),
                  routed_short_tasks_wait_under_half_a_long_one=(longest["routed"] < LONG / 2, True),
                  two_workers_wait_less_than_any_lone_case=(longest["two_workers"]
                                                            < min(shortest[case] for case in lone), True),
                  two_workers_ran_the_long_ones_on=(measured["two_workers"].workers, 2), why=measured)


def test_fair_is_the_default_scheduling_strategy(observe):
    strategies = sched_strategies()
    observe(strategy_fair=strategies.fair)
    observe.equal(strategy_none=(strategies.without_o, strategies.fair),
                  strategy_default=(strategies.default, strategies.fair))
