"""Loaded by the workers of lesson 08's long report and poison checks (`celery worker -I`): right after the run log
gets the line a stop file next to it names (`runs.log.stop`: `LABEL [WHICH [WHERE]]`, as `r:part`, `p1:start`,
`r:part 3`, `r:part =3.0 send_after`, `task:ex.report:e start`; WHICH and WHERE in any order), the process that logged it stops itself (SIGSTOP),
once; the check then kills the worker. Whatever the task does after the stop (mark a part done, send the next part,
return so that the worker acknowledges the message, kill its own process) does not happen first: a crash at a point
no kill from outside can aim at (a check that polls the log lands later, at load long after the task has moved on).

WHICH: the first line of LABEL (default), the Nth one the run log holds (`3`), or the one after which the parts logged
under LABEL add up to S seconds (`=S`: a report's last part). WHERE: right after the line (`line`, default), or at the
first message the process publishes after it, right before it leaves (`send_before`) or right after (`send_after`).
A `task:NAME:FIRST` label names no line: the start (`start`) or the end (`end`, its work done, before the worker
acknowledges its message) of the first task NAME whose first argument is FIRST.

The waits of `tasks.crunch` are virtual for the reports a file next to the run log lists (`runs.log.virtual`, one label
a line): their parts are logged without their seconds passing (a report far longer than a check can wait for is judged
by its parts). Whenever a process stops, it first writes its pid to `runs.log.stopped`."""
from __future__ import annotations

import os
import signal
import time

from celerylab.lessons.l08_rabbitmq import tasks

STOP_SUFFIX = ".stop"
STOPPED_SUFFIX = ".stopped"
VIRTUAL_SUFFIX = ".virtual"
TASK_PREFIX = "task:"
WHERE = ("line", "send_before", "send_after", "start", "end")

#: Where this process stops at its next publish ("send_before"/"send_after"), once a stop file's line has been logged.
armed: str | None = None


def stop_file() -> str:
    """The stop file of this worker's run log ("" outside a stack: no stop can be asked)."""
    runs = os.environ.get("CELERYLAB_RUNS")
    return runs + STOP_SUFFIX if runs else ""


def asked() -> tuple[str, str, str] | None:
    """The stop the stop file asks for: (label, which, where); None when there is none."""
    if not stop_file():
        return None
    try:
        with open(stop_file(), encoding="utf-8") as named:
            fields = named.read().split()
    except FileNotFoundError:
        return None
    if not fields:
        return None
    rest = fields[1:]
    where = next((field for field in rest if field in WHERE), "line")
    which = next((field for field in rest if field not in WHERE), "1")
    return fields[0], which, where


def logged(label: str) -> list[list[str]]:
    """The run log's lines of `label`, split."""
    try:
        with open(os.environ["CELERYLAB_RUNS"], encoding="utf-8") as runs:
            return [fields for fields in (line.split() for line in runs) if fields and fields[0] == label]
    except FileNotFoundError:
        return []


def reached(label: str, which: str) -> bool:
    """Whether the line just logged (`label`) is the one `which` names (its first, Nth, or the one reaching =S s)."""
    if which == "1":
        return True
    lines = logged(label)
    if which.startswith("="):
        return sum(float(fields[2]) for fields in lines if len(fields) > 2) >= float(which[1:]) - 1e-6
    return len(lines) == int(which)


def take() -> bool:
    """Take (remove) the stop file: only one process stops."""
    try:
        os.unlink(stop_file())
    except FileNotFoundError:  # another process took it first
        return False
    return True


def freeze() -> None:
    """Stop this process, its pid written first to the stopped file (the check knows the stop happened)."""
    with open(os.environ["CELERYLAB_RUNS"] + STOPPED_SUFFIX, "w", encoding="utf-8") as stopped:
        stopped.write(str(os.getpid()))
    os.kill(os.getpid(), signal.SIGSTOP)


def stop_here(label: str) -> str | None:
    """Whether the line just logged (`label`) is the one the stop file names: where to stop (None: not here)."""
    global armed
    stop = asked()
    if stop is None or stop[0] != label or stop[2] in ("start", "end") or not reached(label, stop[1]) or not take():
        return None
    if stop[2] != "line":
        armed = stop[2]
        return None
    return "line"


def patch(module=tasks) -> None:
    """The app's tasks log through the module's `record` (looked up when they call it): wrap it, once."""
    original = module.record
    if getattr(original, "stops", False):
        return

    def record(label: str, *details: object) -> None:
        original(label, *details)
        if stop_here(label):
            freeze()

    record.stops = True  # type: ignore[attr-defined]
    module.record = record


def virtual(label: str) -> bool:
    """Whether the waits of report `label` are virtual (listed in the virtual file)."""
    try:
        with open(os.environ["CELERYLAB_RUNS"] + VIRTUAL_SUFFIX, encoding="utf-8") as listed:
            return label in listed.read().split()
    except FileNotFoundError:
        return False


def crunch(label: str, part: int, seconds: float) -> None:
    """`tasks.crunch`, its wait skipped for a virtual report (its part logged all the same)."""
    if not virtual(label):
        time.sleep(seconds)
    tasks.record(f"{label}:part", part, seconds)


def _crunch(label: str, part: int, seconds: float) -> None:
    from celerylab.lessons.l08_rabbitmq import check_stop_line

    check_stop_line.crunch(label, part, seconds)


def patch_crunch(module=tasks) -> None:
    """Make `crunch` (the function object itself: a module that imported it by name gets it too) run `crunch` here."""
    module.crunch.__code__ = _crunch.__code__


def around_publish(send, exchange: str):
    """`send()` (a message the process publishes to `exchange`), the process stopped right before or right after it
    when armed; events (`celeryev`) pass."""
    global armed
    where = armed if not exchange.startswith("celeryev") else None
    if where == "send_before":
        armed = None
        freeze()
    sent = send()
    if where == "send_after":
        armed = None
        freeze()
    return sent


def patch_publish() -> None:
    """Stop at the first message the process publishes once armed (events aside), before or after it leaves."""
    from kombu.messaging import Producer

    original = Producer.publish
    if getattr(original, "stops", False):
        return

    def publish(self, *args, **kwargs):
        exchange = kwargs.get("exchange")
        return around_publish(lambda: original(self, *args, **kwargs), str(getattr(exchange, "name", exchange) or ""))

    publish.stops = True  # type: ignore[attr-defined]
    Producer.publish = publish  # type: ignore[method-assign]


def on_task(where: str, task=None, args=None, **_) -> None:
    """A task's start or end: stop if the stop file names it (`task:NAME:FIRST` and `where`)."""
    stop = asked()
    if stop is None or not stop[0].startswith(TASK_PREFIX) or stop[2] != where or task is None:
        return
    first = str(args[0]) if args else ""
    if stop[0] == f"{TASK_PREFIX}{task.name}:{first}" and take():
        freeze()


def connect() -> None:
    """Watch every task's start and end (Celery's signals, in the process that runs the task)."""
    from celery import signals

    signals.task_prerun.connect(lambda **kw: on_task("start", **kw), weak=False)
    signals.task_postrun.connect(lambda **kw: on_task("end", **kw), weak=False)


patch()
patch_crunch()
patch_publish()
connect()
