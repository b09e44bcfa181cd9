"""What Celery guarantees by default (prefork, Redis): a killed worker loses its task, an exception is one run."""
from __future__ import annotations

import pytest

from celerylab.lessons.l01_retries import helpers
from celerylab.lessons.l01_retries import tasks_delivery as delivery

pytestmark = pytest.mark.live


def test_a_worker_killed_mid_task_loses_it_by_default(stack, observe):
    result = delivery.slow_step.delay(3)
    helpers.wait_runs(stack, result.id)
    stack.workers[0].kill(group=True)
    left = helpers.broker_messages(stack, result.id)
    observe.equal(broker_queue=(left["queue"], 0), broker_unacked=(left["unacked"], 0))
    stack.workers[0].restart()
    after_restart = delivery.slow_step.delay(0).get(timeout=10)
    observe.equal(next_task=(after_restart, "done"), runs=(helpers.runs(stack, result.id), 1),
                  state=(result.state, "PENDING"))


def test_an_exception_without_a_retry_policy_runs_once(stack, observe):
    failed = delivery.boom.delay()
    failed.get(timeout=10, propagate=False)
    observe.equal(state=(failed.state, "FAILURE"), error=(type(failed.result).__name__, "ValueError"),
                  runs=(helpers.runs(stack, failed.id), 1))


def test_the_default_acks_early_and_acks_late_keeps_the_message(stack, observe):
    observe.equal(task_acks_late=(stack.app.conf.task_acks_late, False),
                  pay_and_count_acks_late=(delivery.pay_and_count.acks_late, True),
                  pay_and_count_reject_on_worker_lost=(delivery.pay_and_count.reject_on_worker_lost, True))
