"""Lesson 02's claims on workers: a lost pool child, warm/cold/soft shutdown, time limits per pool, RabbitMQ's requeue."""
from __future__ import annotations

import pytest

from celerylab import machine_needs
from celerylab.lessons.l02_workers import helpers
from celerylab.lessons.l02_workers.experiments.group_sigterm import group_sigterm
from celerylab.lessons.l02_workers.experiments.lost_after_success import lost_after_success
from celerylab.lessons.l02_workers.experiments.lost_child import lost_child
from celerylab.lessons.l02_workers.experiments.rabbit_requeue import rabbit_requeue
from celerylab.lessons.l02_workers.experiments.rejected_order import rejected_order
from celerylab.lessons.l02_workers.experiments.shutdowns import shutdowns
from celerylab.lessons.l02_workers.experiments.time_limits import time_limits
from celerylab.lessons.l02_workers.experiments.timeout_requeue import timeout_requeue

pytestmark = pytest.mark.live


@pytest.fixture(scope="module")
def shut(lab):
    """The shutdown-run cell's six workers, shut down once for the three claims it shows."""
    return shutdowns(lab)


def test_a_killed_child_fails_is_requeued_or_retried(lab, observe):
    lost = lost_child(lab, seconds=3)  # 3 s: the fourth kill still lands mid-task
    early, late, reject, retry = (lost[name] for name in ("default", "acks_late", "reject", "retry"))
    observe.equal(early=(early.outcome, "FAILURE WorkerLostError"), early_runs=(len(early.starts), 1),
                  acks_late=(late.outcome, "FAILURE WorkerLostError"), acks_late_runs=(len(late.starts), 1),
                  reject_state=(reject.state, "SUCCESS"),
                  reject_redelivered=([e["redelivered"] for e in reject.starts], [False, True]),
                  retry_state=(retry.state, "SUCCESS"), retry_retries=([e["retries"] for e in retry.starts], [0, 1]))


def test_a_rejected_message_goes_to_the_end_of_the_queue(lab, observe):
    order = rejected_order(lab)
    # the head of the queue would give A, A, B, C
    observe.equal(waiting_in_redis=(order.waiting_in_redis, 2), start_order=(order.start_order, ["A", "B", "C", "A"]))


def test_a_child_lost_after_success_is_acknowledged_not_run_again(lab, observe):
    after = lost_after_success(lab)
    observe(redelivered=[e["redelivered"] for e in after.starts])
    observe.equal(acknowledged_as_success=("succeeded before" in after.logged, True), runs=(len(after.starts), 1),
                  state=(after.state, "SUCCESS"), why=f"the worker logged {after.logged!r}")


def test_acks_on_timeout_false_requeues_a_task_killed_by_its_time_limit(lab, observe):
    timed_out = timeout_requeue(lab)
    observe.equal(delivered_again=(timed_out.deliveries >= 2, True), state=(timed_out.state, "FAILURE"),
                  why=f"{timed_out.deliveries} deliveries")


def test_warm_waits_cold_loses_soft_requeues_and_sleeps_the_whole_timeout(shut, observe):
    observe(soft_state=shut["soft"].state)
    observe.equal(warm_state=(shut["warm"].state, "SUCCESS"), warm_finished=(shut["warm"].finished, True),
                  cold_state=(shut["cold"].state, "RETRY"), cold_finished=(shut["cold"].finished, False),
                  cold_requeued=(shut["cold"].requeued, 0),
                  soft_finished=(shut["soft"].finished, False), soft_requeued=(shut["soft"].requeued, 1),
                  soft_restored_in_log=(shut["soft"].restored_in_log, True),
                  short_finished=(shut["short"].finished, True),
                  short_waited_whole_timeout=(shut["short"].exit_after >= 2.0, True),
                  why=f"short's shutdown took {shut['short'].exit_after:.2f} s")


def test_soft_shutdown_waits_only_with_a_task_running(shut, observe):
    observe.equal(soft_shutdown_busy=(shut["short"].soft_wait, True), soft_shutdown_idle=(shut["idle"].soft_wait, False))


def test_cold_shutdown_requeues_an_acks_late_task_and_stores_no_state(shut, observe):
    cold = shut["cold_late"]
    observe.equal(state=(cold.state, "PENDING"), finished=(cold.finished, False), requeued=(cold.requeued, 1))


def test_sigterm_to_the_process_group_loses_an_acks_late_task_and_the_recipe_requeues_it(lab, observe):
    group, unacked = group_sigterm(lab, seconds=3)
    late, recipe = group["group_late"], group["group_recipe"]
    # a warm shutdown would have waited: SUCCESS, nothing queued
    observe.equal(late_state=(late.outcome, "FAILURE WorkerLostError"), late_signal_15=("signal 15" in late.error, True),
                  late_queued=(late.requeued, 0), unacked=(unacked, 0),
                  recipe_state=(recipe.state, "PENDING"), recipe_queued=(recipe.requeued, 1),
                  finished=([late.finished, recipe.finished], [False, False]),
                  why=f"the late task's result: {late.error!r}")


def test_only_prefork_enforces_time_limits(lab, observe):
    limits = {row.pool: row for row in time_limits(lab, seconds=1.5)}
    limited = {"soft_time_limit": "FAILURE SoftTimeLimitExceeded", "time_limit": "FAILURE TimeLimitExceeded"}
    observe.equal(**{f"{pool}_{kind}": (getattr(row, column), limited[column] if pool == "prefork" else "SUCCESS")
                     for pool, row in limits.items()
                     for kind, column in (("soft", "soft_time_limit"), ("hard", "time_limit"))},
                  **{f"{pool}_cleanup_ran": (row.cleanup_ran, pool == "prefork") for pool, row in limits.items()})


@pytest.mark.needs("rabbitmq")
def test_rabbitmq_requeues_at_once(lab, observe):
    reachable, why = helpers.rabbitmq_reachable()
    if not reachable:
        missing = f"{machine_needs.missing_reason(['rabbitmq'])} ({why})"
        pytest.skip(missing)
    rabbit = rabbit_requeue(lab)
    observe.equal(late_back_in_queue=(rabbit.back_in_queue, True), late_back_within_1s=(rabbit.back_after < 1.0, True),
                  early_in_queue=(rabbit.early_in_queue, 0), late_runs=(len(rabbit.late_starts), 2))
