"""A burst of 5 captures (2 retries each) and 3 refunds (they fail): how Flower's /metrics and Workers view count it."""
from dataclasses import dataclass
from importlib.resources import files

from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import Stack


@dataclass
class FlowerMetrics:
    events: dict[tuple[str, str], int]   # (task, event type) -> how much flower_events_total grew
    workers_view: dict[str, int]         # the default worker's row of the Workers view: how much each column grew
    retried_column: bool                 # the Workers view's template has a Retried column
    dashboard_series: dict[str, bool]    # each series of Flower's Grafana dashboard: present in /metrics


def flower_metrics(stack: Stack) -> FlowerMetrics:
    flower = helpers.flower(stack)
    before = helpers.metric_values(flower.get("/metrics").text, "flower_events_total")
    rows_before = helpers.workers_view(flower)
    burst = [tasks.capture.delay(order) for order in range(5)] + [tasks.refund.delay(order) for order in range(3)]
    for result in burst:
        result.get(timeout=20, propagate=False)

    def moved():  # Flower gets the events a moment after the tasks end: until the 8 tasks' last events are in
        after = helpers.metric_values(flower.get("/metrics").text, "flower_events_total")
        delta: dict = {}
        for labels, value in after.items():
            fields = dict(part.split("=", 1) for part in labels)
            key = (fields["task"], fields["type"])
            delta[key] = delta.get(key, 0) + int(value - before.get(labels, 0))
        ended = delta.get(("payment.capture", "task-succeeded"), 0) + delta.get(("payment.refund", "task-failed"), 0)
        return {key: count for key, count in delta.items() if count} if ended >= 8 else None

    events = helpers.until(moved) or {}
    row = helpers.until(lambda: helpers.default_row_grew(flower, rows_before, 8)) or {}
    metrics = flower.get("/metrics").text
    return FlowerMetrics(events, row, ">Retried<" in (files("flower") / "templates" / "workers.html").read_text(),
                         {name: f"# TYPE {name}" in metrics for name in helpers.DASHBOARD_SERIES})
