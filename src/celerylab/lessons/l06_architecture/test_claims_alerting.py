"""The live alert: the burst in a real Prometheus and Alertmanager, Flower's labels, failure ratios per ended task and per try."""
from __future__ import annotations

import gc
import time

import pytest

from celerylab.lessons.l06_architecture import helpers, tasks

pytestmark = [pytest.mark.live, pytest.mark.needs("real-redis", "prometheus", "alertmanager")]


def burst() -> list:
    return [tasks.capture.delay(order) for order in range(5)] + [tasks.refund.delay(order) for order in range(3)]


@pytest.fixture(scope="module")
def alerted():
    """As the lesson runs it: a first burst Flower counts, then Prometheus and the Alertmanager, then the burst again."""
    with helpers.start(flower=True) as stack:
        for result in burst():
            result.get(timeout=30, propagate=False)
        del result  # results reclaimed while Redis is up (gc.collect below): before 5.7 each one later waits ~19 s
        flower = helpers.flower(stack)
        helpers.until(lambda: sum(v for k, v in helpers.metric_values(flower.get("/metrics").text,
                                                                      "flower_events_total").items()
                                  if "type=task-failed" in k or "type=task-succeeded" in k) >= 8, timeout=30)
        monitor = helpers.start_monitoring(stack, hold="10s")
        started = time.time()
        results = burst()
        seen = monitor.timeline(started, received=2, timeout=120)
        for result in results:
            result.get(timeout=30, propagate=False)
        del result, results
        held = {alert["labels"]["alertname"]: alert["labels"] for alert in monitor.received()}
        labels = {label for series in monitor.series("flower_events_total") for label in series}
        rows = helpers.per_worker(monitor)
        monitor.stop()
        yield {"seen": seen, "held": held, "labels": labels, "rows": rows}
        gc.collect()


def test_an_alert_without_for_fires_at_once_and_one_with_for_goes_pending_first(alerted, observe):
    seen, held = alerted["seen"], alerted["held"]
    stages = {f"{name} {task}": list(states) for (name, task), states in sorted(seen.items())}
    observe.equal(stages=(stages, {"CeleryRetryStorm payment.capture": ["pending", "firing", "received"],
                                   "CeleryTaskFailing payment.refund": ["firing", "received"]}),
                  labels=(dict(sorted(held.items())),
                          {"CeleryRetryStorm": {"alertname": "CeleryRetryStorm", "task": "payment.capture"},
                           "CeleryTaskFailing": {"alertname": "CeleryTaskFailing", "task": "payment.refund",
                                                 "severity": "page"}}))


def test_flower_series_have_no_queue_label(alerted, observe):
    labels = sorted(alerted["labels"] - {"__name__", "instance", "job"})
    observe.equal(labels=(labels, ["task", "type", "worker"]))


def test_failures_per_ended_task_and_per_try_on_the_default_worker(alerted, observe):
    (row,) = alerted["rows"]
    near = {"per_task_near_3_of_8": abs(row["per_task"] - 3 / 8) <= 0.02,
            "per_try_near_3_of_18": abs(row["per_try"] - 3 / 18) <= 0.02}
    observe(worker=row["worker"].split("@")[1])
    observe.that(**near, why=row)
    assert row["worker"].startswith("celery@default")
