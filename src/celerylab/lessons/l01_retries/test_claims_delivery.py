"""What Celery guarantees by default (prefork, Redis): a killed worker loses its task, an exception is one run."""
from __future__ import annotations

import pytest

from celerylab.lessons.l01_retries.experiments.ack_settings import ack_settings
from celerylab.lessons.l01_retries.experiments.killed_worker import killed_worker
from celerylab.lessons.l01_retries.experiments.one_exception import one_exception

pytestmark = pytest.mark.live


def test_a_worker_killed_mid_task_loses_it_by_default(stack, observe):
    killed = killed_worker(stack)
    observe.equal(broker_queue=(killed.broker_queue, 0), broker_unacked=(killed.broker_unacked, 0),
                  next_task=(killed.next_task, "done"), runs=(killed.runs, 1), state=(killed.state, "PENDING"))


def test_an_exception_without_a_retry_policy_runs_once(stack, observe):
    failed = one_exception(stack)
    observe.equal(state=(failed.state, "FAILURE"), error=(failed.error, "ValueError"), runs=(failed.runs, 1))


def test_the_default_acks_early_and_acks_late_keeps_the_message(stack, observe):
    found = ack_settings(stack)
    observe.equal(task_acks_late=(found.task_acks_late, False),
                  pay_and_count_acks_late=(found.task_acks_late_declared, True),
                  pay_and_count_reject_on_worker_lost=(found.task_reject_on_worker_lost_declared, True))
