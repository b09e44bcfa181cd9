"""Lesson 05's Celery app: a periodic tick that records which Beat sent it, the weekly summary, schedule probes."""
from __future__ import annotations

import os
import time
from datetime import datetime, timedelta, timezone

from celery.schedules import maybe_schedule
from celery.signals import before_task_publish, task_postrun, task_prerun

from celerylab.appdb import connect, execute
from celerylab.stack.appconfig import create_app

TICK_SECONDS = float(os.environ.get("L05_TICK_SECONDS", "1"))
PERIOD_ENV = "L05_PERIOD_SECONDS"  # a check shortens "a week" to a few seconds
SEND_ENV = "L05_SEND_SECONDS"  # a check slows the provider down, so that two copies overlap


def period_key(now: float | None = None) -> str:
    """The period a run belongs to: the ISO week ('2026-W49'), or 's<N>' when a check shortens periods."""
    now = time.time() if now is None else now
    seconds = float(os.environ.get(PERIOD_ENV) or 0)
    if seconds:
        return f"s{int(now // seconds)}"
    year, week, _ = datetime.fromtimestamp(now, timezone.utc).isocalendar()
    return f"{year}-W{week:02d}"


def period_seconds() -> float:
    """How often the weekly summary is due: a week, or the shortened period of a check."""
    return float(os.environ.get(PERIOD_ENV) or 7 * 24 * 3600)


app = create_app(
    "l05_beat",
    timezone="UTC",
    beat_schedule={
        "tick": {"task": "l05.tick", "schedule": TICK_SECONDS},
        "summary-naive": {"task": "l05.summary_naive", "schedule": period_seconds()},
    },
)


@before_task_publish.connect
def stamp_sender(headers=None, **_) -> None:
    """Runs in the publishing process (a Beat): who sent this message, and when."""
    headers["l05_sender"] = os.getpid()
    headers["l05_parent"] = os.getppid()
    headers["l05_sent_at"] = time.time()


SPANNED = "ex.weekly_summary"  # the exercise's task: a check asks whether two copies of it overlapped
_started: dict[str, float] = {}


@task_prerun.connect
def span_start(task_id=None, task=None, **_) -> None:
    """Runs in the pool process: when a copy of the exercise's task started."""
    if task is not None and task.name == SPANNED:
        _started[task_id] = time.time()


@task_postrun.connect
def span_end(task_id=None, task=None, **_) -> None:
    """One row in `spans`: which process ran a copy of the exercise's task, from when to when."""
    if task_id in _started:
        execute(connect(), "INSERT INTO spans (task_id, pid, started, ended) VALUES (?, ?, ?, ?)",
                (task_id, os.getpid(), _started.pop(task_id), time.time()))


def record_run(request) -> None:
    """One row in `runs`: the sending process (and its parent), when it sent, when this ran."""
    execute(connect(), "INSERT INTO runs (sender, parent, sent_at, ran_at) VALUES (?, ?, ?, ?)",
            (getattr(request, "l05_sender", None), getattr(request, "l05_parent", None),
             getattr(request, "l05_sent_at", None), time.time()))


@app.task(name="l05.tick", bind=True)
def tick(self) -> None:
    """The periodic task: one row per execution, with the Beat that sent it."""
    record_run(self.request)


def send_summary_email(period: str) -> None:
    """The fake e-mail provider: every call is one e-mail in the managers' inbox (the `emails` table)."""
    time.sleep(float(os.environ.get(SEND_ENV) or 0))
    execute(connect(), "INSERT INTO emails (period, sent_at, sender) VALUES (?, ?, ?)",
            (period, time.time(), os.getpid()))


@app.task(name="l05.summary_naive")
def summary_naive() -> str:
    """The incident's summary: send every time the task runs."""
    period = period_key()
    send_summary_email(period)
    return period


@app.task(name="l05.schedule_fires")
def schedule_fires(entry: str, start: str, end: str, step_minutes: int = 1) -> list[str]:
    """Ask this worker's own schedule (its Celery, its settings) when `entry` fires between two UTC instants.

    Imitates Beat with a fixed clock: is_due(last_run_at) every `step_minutes`.
    """
    spec = app.conf.beat_schedule[entry]
    schedule = maybe_schedule(spec["schedule"], app=app)
    step = timedelta(minutes=step_minutes)
    now, stop = datetime.fromisoformat(start), datetime.fromisoformat(end)
    last, fires = now - step, []
    while now < stop:
        schedule.nowfun = (lambda instant=now: instant)
        if schedule.is_due(last)[0]:
            fires.append(now.astimezone(timezone.utc).isoformat())
            last = now
        now += step
    return fires


@app.task(name="l05.entry_args")
def entry_args(entry: str) -> list:
    """The args this worker's schedule gives `entry`."""
    return list(app.conf.beat_schedule[entry].get("args", ()))
