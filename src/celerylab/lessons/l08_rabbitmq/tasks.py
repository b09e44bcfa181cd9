"""Lesson 08's Celery app: a long report, a delayed reminder, a task that kills its own process; each run is logged."""
from __future__ import annotations

import os
import time

from celerylab.stack.appconfig import create_app

app = create_app("l08_rabbitmq")


def record(label: str, *details: object) -> None:
    """Append one line (`label details... pid time`) to the stack's run log: every run counts, even one whose worker dies."""
    with open(os.environ["CELERYLAB_RUNS"], "a", encoding="utf-8") as runs:
        runs.write(" ".join(map(str, (label, *details, os.getpid(), f"{time.time():.3f}"))) + "\n")


def crunch(label: str, part: int, seconds: float) -> None:
    """`seconds` of a report's work, as part number `part`; logged when it is done."""
    time.sleep(seconds)
    record(f"{label}:part", part, seconds)


@app.task(name="l08.echo")
def echo(text: str) -> str:
    """Return what it was sent: the worker is up and answering."""
    return text


@app.task(name="celerylab.deploy.canary")
def canary() -> str:
    """The health check's task (`celerylab.deploy.canary.healthy` sends it): answering it proves the worker consumes."""
    return "canary"


@app.task(name="l08.report")
def report(label: str, seconds: float) -> str:
    """A report that takes `seconds` in one go: logs its start and its end."""
    record(f"{label}:start")
    time.sleep(seconds)
    record(f"{label}:end")
    return label


@app.task(name="l08.remind")
def remind(label: str) -> str:
    """The reminder itself: logs when it runs (what a delayed task's delay is measured by)."""
    record(f"{label}:start")
    return label


@app.task(name="l08.remind_later")
def remind_later(label: str, countdown: int) -> None:
    """What the web process does: schedule `l08.remind` in `countdown` s, with this process's configuration."""
    remind.apply_async((label,), countdown=countdown)
    record(f"{label}:sent")


@app.task(name="l08.poison")
def poison(label: str) -> None:
    """A task whose input kills the process that runs it (a segfault in a C library, the OOM killer)."""
    record(f"{label}:start")
    os.kill(os.getpid(), 9)
