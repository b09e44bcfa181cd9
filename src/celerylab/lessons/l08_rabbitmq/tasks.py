"""Lesson 08's Celery app: a long report, a delayed reminder, a schedule in the app's database, a task that kills its own process; each run is logged."""
from __future__ import annotations

import json
import os
import time

from celerylab import appdb
from celerylab.deploy.canary import register_canary
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


canary = register_canary(app)  # the health check's task (`celerylab.deploy.canary.healthy` sends it)


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


@app.task(name="l08.thumbnail")
def thumbnail(label: str) -> None:
    """Another task that kills its process: an image its decoder crashes on (no task of the app is safe from it)."""
    record(f"{label}:start")
    os.kill(os.getpid(), 9)


#: The application's own schedule: what to send, and when (the stack's database gets it as its schema).
SCHEDULE = ("CREATE TABLE IF NOT EXISTS scheduled (label TEXT PRIMARY KEY, task TEXT NOT NULL, args TEXT NOT NULL,"
            " run_at DOUBLE PRECISION NOT NULL, sent_at DOUBLE PRECISION)")


def schedule(connection, label: str, task: str, args: tuple, run_at: float) -> None:
    """What the view does instead of `countdown=`: store the task and its "run at" in the app's database."""
    appdb.execute(connection, "INSERT INTO scheduled (label, task, args, run_at) VALUES (?, ?, ?, ?)",
                  (label, task, json.dumps(list(args)), run_at))


@app.task(name="l08.enqueue_due")
def enqueue_due() -> int:
    """Beat's periodic entry: send every scheduled task whose time has come, once (marked sent in the same transaction)."""
    connection = appdb.connect()
    try:
        with appdb.transaction(connection):
            due = appdb.execute(connection, "SELECT label, task, args FROM scheduled WHERE sent_at IS NULL AND run_at <= ?",
                                (time.time(),)).fetchall()
            sent = 0
            for label, task, args in due:
                # marked only if no other poll marked it first (two Beats, a poll that overran the next one)
                claimed = appdb.execute(connection, "UPDATE scheduled SET sent_at = ? WHERE label = ? AND sent_at IS NULL",
                                        (time.time(), label)).rowcount
                if claimed:
                    app.send_task(task, json.loads(args))  # a failed send rolls the mark back: the next poll sends it
                    sent += 1
        return sent
    finally:
        connection.close()
