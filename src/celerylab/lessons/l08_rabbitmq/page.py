"""The page's run: live on the RabbitMQ `sources` finds (a URL, a private node, a container), or, where there is none,
the recorded run's figures; on a URL the page does not manage, the cells that need to manage the node show them too."""
from __future__ import annotations

import dataclasses
import datetime
import json
import os
from pathlib import Path

import celery

from celerylab import atomic, machine_needs
from celerylab.i18n import t
from celerylab.lessons.l08_rabbitmq import container, sources
from celerylab.stack import rabbitmq_node
from celerylab.stack.rabbitmq_node import RabbitNode

RECORDED = Path(__file__).with_name("recorded.json")  # written by `python -m celerylab.compiler.record l08_rabbitmq`
RECORD_ENV = "CELERYLAB_RECORD"  # a file: a live run keeps every measurement there (celerylab.compiler.record sets it)
# The measurements a RabbitMQ given by URL cannot make, each with why (`l08.url_needs.<why>`): the page neither
# configures, reads with rabbitmqctl, nor stops a broker it did not start.
NODE_ONLY = {"late": "timeout", "eta": "timeout", "per_queue": "timeout", "early": "timeout", "delays": "timeout",
             "retry": "timeout", "consumer_timeout": "config", "raised": "config", "alarm": "alarm", "burst": "alarm",
             "restart": "restart", "releases": "config"}


@dataclasses.dataclass
class Run:
    """The page's run: which RabbitMQ (`sources.Found.kind`), its node (None: recorded), the recorded run where some
    cell shows it, what it measured so far."""

    node: RabbitNode | sources.UrlBroker | None = None
    recorded: dict | None = None
    measured: dict = dataclasses.field(default_factory=dict)
    kind: str = "recorded"


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


def start(consumer_timeout_ms: int) -> RabbitNode | sources.UrlBroker | None:
    """The page's RabbitMQ (`sources.find`), a line saying which and its version after one per branch passed over;
    where there is none, None and the notice of the recorded run."""
    found = sources.find(consumer_timeout_ms)
    node = found.node
    RUN.node, RUN.kind, RUN.measured = node, found.kind, {}
    RUN.recorded = atomic.read_json(RECORDED) if found.kind in ("recorded", "url") else None
    for note in found.notes:
        print(note)
    recorded: dict = RUN.recorded or {}
    if node is None:
        print(t("l08.recorded", rabbitmq=recorded["rabbitmq"], celery=recorded["celery"], date=recorded["date"],
                install=machine_needs.how_to_get("rabbitmq-server"), variable=sources.URL_ENV))
        return None
    if isinstance(node, sources.UrlBroker):
        print(t("l08.source.url", version=node.version(), url=sources.shown(node.url), variable=found.variable,
                rabbitmq=recorded["rabbitmq"], date=recorded["date"]))
        return node
    version, timeout = node.version(), node.consumer_timeout()
    if isinstance(node, container.RabbitContainer):
        print(t("l08.source.container", version=version, engine=node.engine_name, image=node.image, port=node.port,
                timeout=timeout, production=rabbitmq_node.PRODUCTION_TIMEOUT_MS))
    else:
        print(t("l08.node", version=version, program=rabbitmq_node.program("rabbitmq-server"), timeout=timeout,
                production=rabbitmq_node.PRODUCTION_TIMEOUT_MS))
    if os.environ.get(RECORD_ENV):
        keep({"rabbitmq": version, "celery": celery.__version__, "date": datetime.date.today().isoformat(),
              "measured": {}})
    return node


def declared(queue: str) -> str:
    """`queue`, kept to be deleted at the end when the page's RabbitMQ is one given by URL (a private node goes whole)."""
    if isinstance(RUN.node, sources.UrlBroker):
        RUN.node.declared.append(queue)
    return queue


def measure(name: str, run):
    """`run()` on the live RabbitMQ (recorded under `name` when the record command runs the page); without one, or on
    a URL when `name` needs a node the page manages (NODE_ONLY), the recorded run's `name`, announced as recorded.
    What the summary prints at the end."""
    recorded = RUN.recorded
    if RUN.node is None or (RUN.kind == "url" and name in NODE_ONLY):
        assert recorded is not None
        if RUN.node is None:
            print(t("l08.recorded_mark", rabbitmq=recorded["rabbitmq"], date=recorded["date"]))
        else:
            print(t("l08.url_recorded", why=t(f"l08.url_needs.{NODE_ONLY[name]}"), rabbitmq=recorded["rabbitmq"],
                    date=recorded["date"]))
        value = recorded["measured"][name]
    else:
        value = run()
        if os.environ.get(RECORD_ENV) and RUN.kind != "url":
            kept = atomic.read_json(os.environ[RECORD_ENV])
            kept["measured"][name] = plain(value)
            keep(kept)
    RUN.measured[name] = value
    return value


def measured() -> dict:
    """Every measurement of this run so far, by name (live records, or the recorded run's dicts)."""
    return RUN.measured


def stop(node: RabbitNode | sources.UrlBroker | None) -> None:
    """Stop the page's node, or delete the queues it declared on a URL's broker (nothing to stop in a recorded run)."""
    if node is not None:
        node.stop()
