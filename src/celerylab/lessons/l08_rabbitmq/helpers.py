"""Lesson 08's notebook helpers: the private RabbitMQ node, one stack per experiment on it, and reads of what happened."""
from __future__ import annotations

import re
import threading
import time
import uuid
from pathlib import Path

from kombu import Connection

from celerylab import localized
from celerylab.i18n import t
from celerylab.lessons.l08_rabbitmq import tasks
from celerylab.polling import until
from celerylab.stack import Stack, WorkerSpec, rabbitmq_node
from celerylab.stack.rabbitmq_node import RabbitNode

APP = "celerylab.lessons.l08_rabbitmq.tasks"
LAB_TIMEOUT_MS = 3000  # the lab's consumer_timeout; production's default is rabbitmq_node.PRODUCTION_TIMEOUT_MS
ACK_TIMEOUT = r"Unrecoverable error: PreconditionFailed\(406, 'PRECONDITION_FAILED - delivery acknowledgement[^']*"
NATIVE_DELAY_WARNING = r"is a direct exchange and native delayed delivery do not support direct exchanges"
EXPECTED = 60.0  # seconds given to a wait that ends as soon as what it waits for happens (alone it takes 1-8 s): load only slows it
SETTLE = 2.0  # seconds a settled poison queue must stay settled (a requeued message is redelivered in ms)


def unavailable() -> str:
    """Why this machine cannot run the RabbitMQ cells, in the page's language ("" when it can)."""
    absent = rabbitmq_node.missing()
    return t("l08.skip", programs=absent) if absent else ""


def start_node(consumer_timeout_ms: int = LAB_TIMEOUT_MS) -> RabbitNode | None:
    """The page's private RabbitMQ node (None, with the reason printed, where RabbitMQ is not installed)."""
    reason = unavailable()
    if reason:
        print(reason)
        return None
    return RabbitNode(consumer_timeout_ms=consumer_timeout_ms).start()


def queue_name(label: str) -> str:
    """A queue of its own for one experiment: nothing one leaves behind reaches the next one's worker."""
    return f"l08-{label}-{uuid.uuid4().hex[:6]}"


def quorum(name: str, exchange_type: str = "direct", **arguments) -> dict:
    """`task_queues` entry (a dict: settings reach the worker as JSON) for a quorum queue `name` on exchange `name`."""
    return {"exchange": name, "exchange_type": exchange_type, "routing_key": name,
            "queue_arguments": {"x-queue-type": "quorum", **arguments}}


def experiment(node: RabbitNode | None, queue: str, *, queues: dict | None = None, concurrency: int = 1,
               workers: int = 1, poll: float | None = None, **worker_settings) -> Stack:
    """A stack whose `workers` prefork workers consume `queue` on the node (results in the stack's own Redis).

    node: None puts the broker in the stack's own Redis too (the lesson's comparison with Redis).
    queues: `task_queues` entries (see `quorum`); without them, `queue` is a classic queue Celery creates.
    poll: also an application database holding `tasks.SCHEDULE` and a Beat that sends `l08.enqueue_due` every
    `poll` s (the schedule in the application's database).
    worker_settings: Celery settings of the workers (`task_acks_late=True`...).
    """
    settings = {"task_default_queue": queue, **({"broker_url": node.url} if node is not None else {})}
    if queues:
        settings["task_queues"] = queues
    scheduled_in_db = {}
    if poll is not None:
        settings["beat_schedule"] = {"l08-enqueue-due": {"task": "l08.enqueue_due", "schedule": poll}}
        scheduled_in_db = {"beats": 1, "database": [tasks.SCHEDULE]}
    spec = WorkerSpec(pool="prefork", concurrency=concurrency, queues=(queue,), settings=worker_settings)
    return Stack.start(APP, workers=[spec] * workers, timeline=False, settings=settings,
                       env={"CELERYLAB_RUNS": "{workdir}/runs.log"}, **scheduled_in_db)


def runs(stack: Stack, label: str | None = None) -> list[list[str]]:
    """The run log's lines (`label details... pid time`, split), all or those of one label (`r1:start`...)."""
    path = Path(stack.workdir) / "runs.log"
    lines = [line.split() for line in path.read_text().splitlines()] if path.exists() else []
    return [line for line in lines if label is None or line[0] == label]


def when(stack: Stack, label: str) -> float | None:
    """The time of a label's first line in the run log (None: it never ran)."""
    found = runs(stack, label)
    return float(found[0][-1]) if found else None


def ready(node: RabbitNode, queue: str) -> int | None:
    """Messages ready in a queue (a passive declare: nothing is created); None when the queue does not exist."""
    with Connection(node.url) as connection:
        try:
            return connection.default_channel.queue_declare(queue, passive=True).message_count
        except Exception:  # amqp's NotFound: the queue is not there
            return None


def messages(node: RabbitNode) -> dict[str, int]:
    """Messages each classic queue holds (ready and unacknowledged), as the node reports them, in one `rabbitmqctl`
    call (it answers while the node blocks publishers)."""
    out = node.ctl("list_queues", "-q", "--no-table-headers", "name", "messages")
    return {name: int(count) for name, count in (line.split() for line in out.splitlines() if line.strip())}


def unacked(node: RabbitNode, queue: str) -> int:
    """Messages of classic queue `queue` delivered to a consumer and not yet acknowledged (held in a worker's memory).

    For a quorum queue, `rabbitmqctl` reports statistics emitted every few seconds: use `scheduled` there.
    """
    out = node.ctl("list_queues", "-q", "--no-table-headers", "name", "messages_unacknowledged")
    return sum(int(count) for name, count in (line.split() for line in out.splitlines() if line.strip())
               if name == queue)


def delayed_levels(node: RabbitNode) -> dict[str, int]:
    """How many native delayed delivery exchanges and queues the node holds (`celery_delayed_*`).

    Not the messages waiting in them: a quorum queue's counts (from `rabbitmqctl` or a passive declare) lag behind.
    """
    exchanges = [name for name in node.ctl("list_exchanges", "-q", "--no-table-headers", "name").split()
                 if name.startswith("celery_delayed")]
    queues = [name for name in node.ctl("list_queues", "-q", "--no-table-headers", "name").split()
              if name.startswith("celery_delayed")]
    return {"exchanges": len(exchanges), "queues": len(queues)}


def scheduled(stack: Stack, timeout: float = 3.0) -> int:
    """ETA/countdown tasks the stack's workers hold in memory, as they answer `inspect scheduled`; asked again while no
    worker answers within its 1 s (a loaded worker), up to `timeout` s (0 if none ever answered)."""
    hostnames = [worker.hostname for worker in stack.workers]  # other stacks' workers share the node's vhost
    answers = until(lambda: stack.app.control.inspect(destination=hostnames, timeout=1.0).scheduled(), timeout) or {}
    return sum(len(tasks) for tasks in answers.values())


def deaths_handled(worker) -> int:
    """Pool children lost under a task that the worker has handled (the message acked, rejected or requeued)."""
    return worker.logs().count("Task handler raised error: WorkerLostError")


def ack_timeout_line(worker) -> str:
    """The worker's critical line when RabbitMQ closed its channel for a late ack ("" if it never logged one)."""
    found = re.search(ACK_TIMEOUT, worker.logs())
    return found.group(0) if found else ""


def ack_timeout_within(worker, timeout: float) -> bool:
    """Whether the worker logs the ack timeout within `timeout` s."""
    return bool(until(lambda: ack_timeout_line(worker), timeout))


def exits_within(worker, timeout: float) -> bool:
    """Whether the worker's main process exits within `timeout` s."""
    return bool(until(lambda: not worker.alive, timeout))


def set_consumer_timeout(node: RabbitNode, ms: int) -> int | None:
    """Change the node's consumer_timeout while it runs (channels opened afterwards use it); the value read back."""
    node.ctl("eval", f"application:set_env(rabbit, consumer_timeout, {ms}).")
    return node.consumer_timeout()


def seconds(value: float) -> str:
    """A duration as the page prints it: one decimal (a comma in Portuguese) and a unit."""
    return f"{localized.number(value, digits=1)} s"


def yes(value: bool) -> str:
    return localized.value("l08", bool(value))


class Supervisor:
    """What systemd's `Restart=always` does for a worker: start it again whenever it exits; counts the restarts."""

    def __init__(self, stack: Stack, poll: float = 0.2):
        self.stack, self.poll, self.restarts = stack, poll, 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True, name="l08-supervisor")

    def _watch(self) -> None:
        while not self._stop.wait(self.poll):
            for worker in self.stack.workers:
                if not worker.alive and not self._stop.is_set():
                    self.restarts += 1
                    try:
                        worker.restart()
                    except Exception:  # a worker that cannot start again stays down; the count says so
                        pass

    def __enter__(self) -> "Supervisor":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(5)


def let_go(stack: Stack) -> None:
    """Stop waiting for results that never came (a canary nobody consumed) while the stack's backend is up: otherwise
    Celery unsubscribes from them when they are collected, after the backend is gone, and prints a traceback."""
    backend = stack.app.backend
    for mapping in getattr(backend, "_pending_results", ()):  # Celery's async backends (Redis): private, read-only here
        for entry in list(mapping.values()):  # 5.7: {task id: {id(result): result}}; 5.5 and 5.6: {task id: result}
            for result in (list(entry.values()) if isinstance(entry, dict) else [entry]):
                backend.remove_pending_result(result)


def wait(seconds_: float) -> None:
    """A plain pause where the lesson waits for the broker's clock (a delay, a timeout), not for a condition."""
    time.sleep(seconds_)


def shown(value, key: str = "") -> str:
    """One measured value as the page prints it: durations in seconds (milliseconds for a `ms_` key, two decimals),
    booleans in the page's words, None as "-"."""
    if value is None:
        return "-"
    if key.startswith("ms_"):
        return f"{localized.number(value, digits=2)} ms"
    if isinstance(value, bool):
        return yes(value)
    if isinstance(value, float):
        return seconds(value)
    return localized.value("l08", value)


def show(seen: dict, *keys: str) -> None:
    """Print the chosen measurements of a scenario, one per line, with the lesson's label for each."""
    for key in keys or seen:
        print(f"{t(f'l08.seen.{key}')}: {shown(seen[key], key)}")
