"""The page's run: live on a private RabbitMQ node, or, on a machine without RabbitMQ, the recorded run's figures."""
from __future__ import annotations

import dataclasses
import datetime
import json
import os
from pathlib import Path

import celery

from celerylab import atomic, machine_needs
from celerylab.i18n import t
from celerylab.stack import rabbitmq_node
from celerylab.stack.rabbitmq_node import RabbitNode

RECORDED = Path(__file__).with_name("recorded.json")  # written by `python -m celerylab.compiler.record l08_rabbitmq`
RECORD_ENV = "CELERYLAB_RECORD"  # a file: a live run keeps every measurement there (celerylab.compiler.record sets it)


@dataclasses.dataclass
class Run:
    """The page's run: its node (None: recorded), the recorded run when there is no node, what it measured so far."""

    node: RabbitNode | None = None
    recorded: dict | None = None
    measured: dict = dataclasses.field(default_factory=dict)


RUN = Run()


def plain(value):
    """A measurement as JSON holds it: records (dataclasses) and mappings as dicts, tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {item.name: plain(getattr(value, item.name)) for item in dataclasses.fields(value)}
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    return value


def keep(record: dict) -> None:
    """Write the run being recorded, keys in the order the page measured them (the order a recorded page prints)."""
    atomic.write_text(os.environ[RECORD_ENV], json.dumps(record, ensure_ascii=False, indent=2) + "\n")


def start(consumer_timeout_ms: int) -> RabbitNode | None:
    """The page's private node, its line printed; without RabbitMQ, None and the notice of the recorded run."""
    absent = rabbitmq_node.missing()
    if absent:
        recorded = atomic.read_json(RECORDED)
        RUN.node, RUN.recorded, RUN.measured = None, recorded, {}
        print(t("l08.recorded", programs=absent, rabbitmq=recorded["rabbitmq"], celery=recorded["celery"],
                date=recorded["date"], install=machine_needs.how_to_get("rabbitmq-server")))
        return None
    node = RabbitNode(consumer_timeout_ms=consumer_timeout_ms).start()
    RUN.node, RUN.recorded, RUN.measured = node, None, {}
    print(t("l08.node", version=node.version(), timeout=node.consumer_timeout(),
            production=rabbitmq_node.PRODUCTION_TIMEOUT_MS))
    if os.environ.get(RECORD_ENV):
        keep({"rabbitmq": node.version(), "celery": celery.__version__, "date": datetime.date.today().isoformat(),
              "measured": {}})
    return node


def measure(name: str, run):
    """`run()` on the live node (recorded under `name` when the record command runs the page); without a node, the
    recorded run's `name`, announced as recorded. What the summary prints at the end."""
    if RUN.recorded is not None:
        print(t("l08.recorded_mark", rabbitmq=RUN.recorded["rabbitmq"], date=RUN.recorded["date"]))
        value = RUN.recorded["measured"][name]
    else:
        value = run()
        if os.environ.get(RECORD_ENV):
            kept = atomic.read_json(os.environ[RECORD_ENV])
            kept["measured"][name] = plain(value)
            keep(kept)
    RUN.measured[name] = value
    return value


def measured() -> dict:
    """Every measurement of this run so far, by name (live records, or the recorded run's dicts)."""
    return RUN.measured


def stop(node: RabbitNode | None) -> None:
    """Stop the page's node (nothing to stop in a recorded run)."""
    if node is not None:
        node.stop()
