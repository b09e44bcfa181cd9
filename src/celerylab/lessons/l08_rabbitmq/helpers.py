"""Lesson 08's notebook helpers: the private RabbitMQ node, one stack per experiment on it, and reads of what happened."""
from __future__ import annotations

import dataclasses
import os
import re
import threading
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from kombu import Connection

from celerylab import localized
from celerylab.deploy.canary import healthy
from celerylab.i18n import t
from celerylab.lessons.l08_rabbitmq import page, sources, tasks
from celerylab.polling import until
from celerylab.stack import Stack, WorkerSpec, redis_binaries
from celerylab.stack.broker import URL_ENV as LAB_BROKER_ENV
from celerylab.stack.errors import ServiceError, StackError
from celerylab.stack.rabbitmq_node import RabbitNode

APP = "celerylab.lessons.l08_rabbitmq.tasks"
LAB_TIMEOUT_MS = 3000  # the lab's consumer_timeout; production's default is rabbitmq_node.PRODUCTION_TIMEOUT_MS
ACK_TIMEOUT = r"Unrecoverable error: PreconditionFailed\(406, 'PRECONDITION_FAILED - delivery acknowledgement[^']*"
NATIVE_DELAY_WARNING = r"is a direct exchange and native delayed delivery do not support direct exchanges"
EXPECTED = 60.0  # seconds given to a wait that ends as soon as what it waits for happens (alone it takes 1-8 s): load only slows it
#: seconds a settled poison queue must stay settled: a death is logged once the message went back to the broker, and
#: its redelivery (or dead-lettering) is the broker's round trip, ms when quiet but over 2 s on a loaded machine
SETTLE = 6.0


def start_node(consumer_timeout_ms: int = LAB_TIMEOUT_MS) -> RabbitNode | sources.UrlBroker | None:
    """The page's RabbitMQ: a URL given, else a private node (the system's rabbitmq-server, else a container); None
    where there is none (the page then shows its recorded run)."""
    return page.start(consumer_timeout_ms)


def queue_name(label: str) -> str:
    """A queue of its own for one experiment: nothing one leaves behind reaches the next one's worker (on a broker
    given by URL, the page deletes it at the end)."""
    return page.declared(f"l08-{label}-{uuid.uuid4().hex[:6]}")


def results_broker_kind() -> str | None:
    """The broker kind of an experiment's own Redis: the stacks' usual choice (None), but when the lab's broker URL
    is this page's RabbitMQ (AMQP), the private Redis a stack would start without that URL."""
    if not sources.is_amqp(os.environ.get(LAB_BROKER_ENV, "")):
        return None
    if redis_binaries.system() is not None:
        return "redis-server"
    return "packaged" if redis_binaries.packaged() is not None else "embedded"


def quorum(name: str, exchange_type: str = "direct", **arguments) -> dict:
    """`task_queues` entry (a dict: settings reach the worker as JSON) for a quorum queue `name` on exchange `name`."""
    return {"exchange": name, "exchange_type": exchange_type, "routing_key": name,
            "queue_arguments": {"x-queue-type": "quorum", **arguments}}


def experiment(node: RabbitNode | sources.UrlBroker | None, queue: str, *, queues: dict | None = None, concurrency: int = 1,
               workers: int = 1, poll: float | None = None, poll_queue: str | None = None, **worker_settings) -> Stack:
    """A stack whose `workers` prefork workers consume `queue` on the node (results in the stack's own Redis).

    node: None puts the broker in the stack's own Redis too (the lesson's comparison with Redis).
    queues: `task_queues` entries (see `quorum`); without them, `queue` is a classic queue Celery creates.
    poll: also an application database holding `tasks.SCHEDULE` and a Beat that sends `l08.enqueue_due` every
    `poll` s (the schedule in the application's database).
    poll_queue: the queue those polls go to (the workers consume it too); None: `queue`.
    worker_settings: Celery settings of the workers (`task_acks_late=True`...).
    """
    settings = {"task_default_queue": queue, **({"broker_url": node.url} if node is not None else {})}
    if queues:
        settings["task_queues"] = queues
    scheduled_in_db = {}
    if poll is not None:
        settings["beat_schedule"] = {"l08-enqueue-due": {"task": "l08.enqueue_due", "schedule": poll,
                                                         "options": {"queue": poll_queue or queue}}}
        scheduled_in_db = {"beats": 1, "database": [tasks.SCHEDULE]}
    consumed = (queue, poll_queue) if poll_queue else (queue,)
    spec = WorkerSpec(pool="prefork", concurrency=concurrency, queues=consumed, settings=worker_settings)
    return Stack.start(APP, workers=[spec] * workers, timeline=False, settings=settings, broker_kind=results_broker_kind(),
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


def ready(node: RabbitNode | sources.UrlBroker, queue: str) -> int | None:
    """Messages ready in a queue (a passive declare: nothing is created); None when the queue does not exist."""
    with Connection(node.url) as connection:
        try:
            return connection.default_channel.queue_declare(queue, passive=True).message_count
        except Exception:  # amqp's NotFound: the queue is not there
            return None


#: A line of `rabbitmqctl list_queues -q --no-table-headers name <column>`: a queue's name, a tab, its count. Nothing
#: else the CLI prints is the node's answer (its Erlang VM writes its own error reports to stdout: an
#: "=ERROR REPORT====" of the folder it was started in, say), and no count is read from it.
QUEUE_COUNT = re.compile(r"^([^\t]+)\t(\d+)$")


def queue_counts(node, column: str, vhost: str | None = None, timeout: float = 120) -> dict[str, int]:
    """{queue: its `column` (messages, messages_unacknowledged...)} of every classic queue of virtual host `vhost`
    (the node's default one if None), as the node reports them, in one `rabbitmqctl list_queues` call (it answers while
    the node blocks publishers); {} if the node did not answer."""
    out = node.ctl("list_queues", *(("-p", vhost) if vhost is not None else ()), "-q", "--no-table-headers", "name",
                   column, timeout=timeout)
    return {found.group(1): int(found.group(2)) for found in map(QUEUE_COUNT.match, out.splitlines()) if found}


def messages(node, vhost: str | None = None, timeout: float = 120) -> dict[str, int]:
    """Messages each classic queue of `vhost` holds (ready and unacknowledged), as `queue_counts` reads them."""
    return queue_counts(node, "messages", vhost, timeout)


def unacked(node: RabbitNode, queue: str) -> int:
    """Messages of classic queue `queue` delivered to a consumer and not yet acknowledged (held in a worker's memory).

    For a quorum queue, `rabbitmqctl` reports statistics emitted every few seconds: use `scheduled` there.
    """
    return queue_counts(node, "messages_unacknowledged").get(queue, 0)


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


def received(worker, task: str) -> int:
    """Deliveries of `task` the worker has received (a redelivery counts again), started or not."""
    return len(re.findall(rf"Task {re.escape(task)}\[[^\]]+\] received", worker.logs()))


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


def exited_at_start(error: BaseException) -> bool:
    """Whether a stack failed because its worker (the learner's module) exited before it was ready, not because of
    the machine (a service that could not start, a worker too slow to be ready in time)."""
    return isinstance(error, StackError) and not isinstance(error, ServiceError) and error.key == "stack.exited"


#: The line of a worker's log that says why it exited: an exception's `module.Name: message` (the last one logged).
EXCEPTION_LINE = re.compile(r"^(?:[A-Za-z_][\w.]*\.)?[A-Z]\w*(?:Error|Exception|Failed|Fault|Refused|NotFound)\b:.*$",
                            re.MULTILINE)


def start_failure(error: BaseException) -> str:
    """Why a worker exited at start, in one line: the last exception its log shows, else the error's message."""
    found = EXCEPTION_LINE.findall(getattr(error, "log_tail", ""))
    return found[-1].strip() if found else str(error).strip()


def declaration_refused(error: BaseException) -> str:
    """The broker's reason when a worker exited at start because RabbitMQ refused to declare its queue (RabbitMQ 4.3
    and an argument a classic queue no longer takes, such as `x-consumer-timeout`); "" for any other failure."""
    line = start_failure(error) if exited_at_start(error) else ""
    return line[line.index("Queue.declare"):] if "Queue.declare" in line else ""


def exits_within(worker, timeout: float) -> bool:
    """Whether the worker's main process exits within `timeout` s."""
    return bool(until(lambda: not worker.alive, timeout))


PRODUCTION_WATERMARK = "0.4"  # RabbitMQ's default vm_memory_high_watermark: 40% of the machine's memory


def raise_memory_alarm(node: RabbitNode) -> None:
    """Put the node's memory watermark near 0: its memory alarm goes off and it blocks publishers (waits for it)."""
    node.ctl("set_vm_memory_high_watermark", "0.0000001")
    until(lambda: "memory" in node.ctl("eval", "rabbit_alarm:get_alarms()."), EXPECTED)


def lift_memory_alarm(node: RabbitNode) -> None:
    """The default watermark back: the alarm clears and blocked publishers go on."""
    node.ctl("set_vm_memory_high_watermark", PRODUCTION_WATERMARK)


def still_messages(node: RabbitNode, queues: list[str], quiet: float = 2.0) -> dict[str, int]:
    """Messages each classic queue holds once their counts have not changed for `quiet` s (up to EXPECTED s)."""
    last, since, deadline = messages(node), time.monotonic(), time.monotonic() + EXPECTED
    while time.monotonic() < deadline and time.monotonic() - since < quiet:
        wait(0.5)
        now = messages(node)
        if [now.get(queue) for queue in queues] != [last.get(queue) for queue in queues]:
            last, since = now, time.monotonic()
    return last


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


def settle(settled, count, timeout: float) -> None:
    """Wait until `settled()` holds and still holds SETTLE s later with `count()` unchanged (a requeued message comes
    back in ms: a quiet moment alone proves nothing)."""
    while until(settled, timeout, step=0.2):
        before = count()
        wait(SETTLE)
        if settled() and count() == before:
            return


def check(stack: Stack, queue: str, timeout: float = 3.0) -> dict:
    """The course's health check (`celerylab.deploy.canary.healthy`) on the stack's worker; a publish that cannot
    reach the broker counts as a failed canary."""
    try:
        return healthy(stack.app, queue, stack.workers[0].hostname, timeout=timeout, ping_timeout=1.0)
    except Exception:  # noqa: BLE001 - kombu's OperationalError while the broker is not back
        return {"ping": False, "canary": False}


def side_by_side(cases: dict) -> dict:
    """Run every ``{name: callable}`` at once (each on its own stack and queue of the node): ``{name: what it returned}``."""
    with ThreadPoolExecutor(max_workers=len(cases)) as pool:
        futures = {name: pool.submit(case) for name, case in cases.items()}
        return {name: future.result() for name, future in futures.items()}


def field(seen, key: str):
    """One measurement of an experiment's record (a dataclass) or of a dict; None where it has none (a record made
    before the measurement existed, a cell that did not finish)."""
    if seen is None:
        return None
    return getattr(seen, key, None) if dataclasses.is_dataclass(seen) else seen.get(key)


# Keys whose missing value (None, or "" for the worker's line) has a sentence of its own (`l08.none.<key>`): what
# did not happen. `exited_after` has two, told apart by the record's `ack_timeout`.
SAID_WHEN_MISSING = {"ack_timeout", "timeout_after", "ran_after_restart", "back_in_queue", "in_queue_while_down",
                     "waited", "late", "ran_after_back", "redelivered_after", "reconnected_after", "raised",
                     "returned_after"}


def absent(key: str, record=None) -> str:
    """What a missing measurement means, in the page's words: the worker logged nothing, the task never ran, the
    process never exited because nothing closed its channel, or hung after the 406..."""
    if key == "exited_after":
        logged = record is not None and field(record, "ack_timeout")
        return t("l08.none.exited_after_hung" if logged else "l08.none.exited_after_no_406", seconds=seconds(EXPECTED))
    return t(f"l08.none.{key}") if key in SAID_WHEN_MISSING else "-"


def shown(value, key: str = "", record=None) -> str:
    """One measured value as the page prints it: durations in seconds (milliseconds for a `ms_` key, two decimals),
    booleans in the page's words, a missing value (None, "") as what did not happen (`absent`)."""
    if value is None or value == "":
        return absent(key, record)
    if key.startswith("ms_"):
        return f"{localized.number(value, digits=2)} ms"
    if isinstance(value, bool):
        return yes(value)
    if isinstance(value, float):
        return seconds(value)
    return localized.value("l08", value)


def refusal(seen) -> str:
    """The line saying the broker refused the experiment's queue, with its reason ("" when it was declared)."""
    reason = field(seen, "declaration_refused")
    return t("l08.declaration_refused", reason=reason) if reason else ""


def show(seen, *keys: str) -> None:
    """Print the chosen measurements of an experiment's record, one per line, with the lesson's label for each; only
    the refusal when the broker refused the experiment's queue (nothing else was measured)."""
    if refusal(seen):
        print(refusal(seen))
        return
    for key in keys or (list(seen) if isinstance(seen, dict) else [item.name for item in dataclasses.fields(seen)]):
        print(f"{t(f'l08.seen.{key}')}: {shown(field(seen, key), key, seen)}")


def show_release(seen: dict) -> None:
    """One record of section 10's run on the page's node, with that section's labels and the node's outcome in words;
    not the broker's own text nor the delivery-to-outcome timing (it varies from run to run)."""
    for key, value in seen.items():
        if key in ("reply_text", "after"):
            continue
        if key == "outcome":
            printed = t(f"l08.release.outcome.{value}")
        elif key == "high_watermark":  # a fraction, not seconds
            printed = localized.value("l08", value) if value is not None else absent(key)
        else:
            printed = shown(value, key, seen)
        print(f"{t(f'l08.release.{key}')}: {printed}")


def stop_node(node: RabbitNode | None) -> None:
    """Stop the page's node (a recorded run has none)."""
    page.stop(node)


def summary() -> None:
    """The page's figures (or, without RabbitMQ, the recorded ones), one line per experiment, section first; the
    counts that vary from run to run (the 406 loop's rounds, the burst's arrivals) stay in their own cells."""
    seen = page.measured()
    delays, deaths, poisons, kills = (seen.get(name) or {} for name in ("delays", "deaths", "poisons", "kills"))
    retry, restart, costs, alarm = (seen.get(name) or {} for name in ("retry", "restart", "costs", "alarm"))
    rows = [("1 acks_late", seen.get("late"), ("timeout_after", "ran", "ran_after_restart")),
            ("2 countdown", seen.get("eta"), ("held_by_worker", "ran", "back_in_queue")),
            ("3 x-consumer-timeout", seen.get("per_queue"), ("timeout_after",)),
            ("3 early ack", seen.get("early"), ("first", "second", "second_ran")),
            *((f"4 {name}", record, ("held_by_worker", "worker_alive", "ran", "waited")) for name, record in delays.items()),
            ("4 database schedule", delays.get("database schedule"), ("unacked", "late")),
            *((f"4 {name}", record, ("ran_while_down", "ran", "ran_after_back")) for name, record in deaths.items()),
            ("4 broker_channel_error_retry, countdown", retry.get("countdown"), ("worker_alive", "ran", "late")),
            ("4 broker_channel_error_retry, acks_late", retry.get("acks_late"), ("worker_alive",)),
            ("5 consumer_timeout 30 s", seen.get("raised"), ("worker_alive", "ran")),
            ("6 classic", poisons.get("classic"), ("looping",)),
            ("6 quorum", poisons.get("quorum, x-delivery-limit 2"), ("runs", "in_queue")),
            *((f"7 SIGKILL, {name}", record, ("redelivered_after", "ran")) for name, record in kills.items()),
            ("8 broker down", seen.get("down"), ("raised", "raised_after")),
            *((f"8 confirm_publish={confirm}", record, ("ms_per_message",)) for confirm, record in costs.items()),
            *((f"8 {t('l08.seen.alarm')}, confirm_publish {name}", record, ("returned_after", "in_queue_during_alarm"))
              for name, record in alarm.items()),
            (f"8 {t('l08.seen.alarm')}, 2000 x 10 KB", seen.get("burst"), ("sent", "raised")),
            ("9 broker restart", field(restart, "after"), ("alive", "reconnected_after", "canary")),
            ("9 cancel_consumer", field(restart, "stopped"), ("ping", "canary"))]
    for section, record, keys in rows:
        print(f"{section}: " + (t("l08.not_measured") if record is None else refusal(record) or "; ".join(
            f"{t(f'l08.seen.{key}')} = {shown(field(record, key), key, record)}" for key in keys)))
