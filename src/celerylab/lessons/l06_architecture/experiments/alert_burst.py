"""The same burst with a real Prometheus (scraping Flower) and Alertmanager: each alert's stages, labels, ratios."""
import time
from dataclasses import dataclass

from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import monitoring


@dataclass
class AlertBurst:
    seen: dict[tuple[str, str], dict[str, float]]  # (alert, task) -> seconds from the burst to each stage it showed
    received: dict[str, dict[str, str]]            # alert -> the labels it reached the Alertmanager with
    series_labels: list[str]                       # the labels of the flower_events_total series Prometheus holds
    per_worker: list[dict]                         # per worker: failures per ended task and per try (Prometheus)


def alert_burst(monitor: monitoring.Monitoring) -> AlertBurst:
    started = time.time()
    burst = [tasks.capture.delay(order) for order in range(5)] + [tasks.refund.delay(order) for order in range(3)]
    seen = monitor.timeline(started, received=2, timeout=120)  # until both alerts reached the Alertmanager
    for result in burst:
        result.get(timeout=30, propagate=False)
    received = {alert["labels"]["alertname"]: alert["labels"] for alert in monitor.received()}
    labels = sorted({label for series in monitor.series("flower_events_total") for label in series}
                    - {"__name__", "instance", "job"})
    return AlertBurst(seen, received, labels, helpers.per_worker(monitor))
