"""The live alert: the burst in a real Prometheus and Alertmanager, Flower's labels, failure ratios per ended task and per try."""
from __future__ import annotations

import gc

import pytest

from celerylab.lessons.l06_architecture import helpers
from celerylab.lessons.l06_architecture.experiments.alert_burst import alert_burst
from celerylab.lessons.l06_architecture.experiments.flower_metrics import flower_metrics

pytestmark = [pytest.mark.live, pytest.mark.needs("real-redis", "prometheus", "alertmanager")]


@pytest.fixture(scope="module")
def alerted():
    """As the lesson runs it: a first burst Flower counts, then Prometheus and the Alertmanager, then the burst again."""
    with helpers.start(flower=True) as stack:
        flower_metrics(stack)
        monitor = helpers.start_monitoring(stack, hold="10s")
        assert monitor is not None
        try:
            measured = alert_burst(monitor)
        finally:
            monitor.stop()
        yield measured
        gc.collect()  # results reclaimed while Redis is up: before 5.7 each one later waits ~19 s


def test_an_alert_without_for_fires_at_once_and_one_with_for_goes_pending_first(alerted, observe):
    stages = {f"{name} {task}": list(states) for (name, task), states in sorted(alerted.seen.items())}
    observe.equal(stages=(stages, {"CeleryRetryStorm payment.capture": ["pending", "firing", "received"],
                                   "CeleryTaskFailing payment.refund": ["firing", "received"]}),
                  labels=(dict(sorted(alerted.received.items())),
                          {"CeleryRetryStorm": {"alertname": "CeleryRetryStorm", "task": "payment.capture"},
                           "CeleryTaskFailing": {"alertname": "CeleryTaskFailing", "task": "payment.refund",
                                                 "severity": "page"}}))


def test_flower_series_have_no_queue_label(alerted, observe):
    observe.equal(labels=(alerted.series_labels, ["task", "type", "worker"]))


def test_failures_per_ended_task_and_per_try_on_the_default_worker(alerted, observe):
    (row,) = alerted.per_worker
    near = {"per_task_near_3_of_8": abs(row["per_task"] - 3 / 8) <= 0.02,
            "per_try_near_3_of_18": abs(row["per_try"] - 3 / 18) <= 0.02}
    observe(worker=row["worker"].split("@")[1])
    observe.that(**near, why=row)
    assert row["worker"].startswith("celery@default")
