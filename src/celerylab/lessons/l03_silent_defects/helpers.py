"""Lesson 03's plumbing: its stack, the broker's queue counts, a worker's log after a pattern, a producer without a backend."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime

from celery import Celery

from celerylab.polling import read_until
from celerylab.stack import Stack, WorkerSpec
from celerylab.stack.appconfig import stack_settings

APP = "celerylab.lessons.l03_silent_defects.tasks"
POLL = 0.05
OPTIONS = re.compile(r"^(\S+)(?: \[(.*)\])?$")  # "name [attr=value ...]": an attribute that is None is left out


def start(**options) -> Stack:
    """The lesson's live stack: a broker and one prefork worker (two processes) running the lesson's app."""
    options.setdefault("timeline", False)
    options.setdefault("workers", [WorkerSpec(pool="prefork", concurrency=2)])
    return Stack.start(APP, **options)


def where_is(stack: Stack, task_id: str, queue: str = "celery") -> str:
    """Where a task's message is in the broker: waiting in `queue`, delivered and unacked, or gone."""
    with stack.app.connection_for_write() as connection:
        channel = connection.default_channel
        if any(task_id in item.decode() for item in channel.client.lrange(queue, 0, -1)):
            return "queue"
        if any(task_id in item.decode() for item in channel.client.hvals(channel.unacked_key)):
            return "unacked"
    return "gone"


def tidy(line: str) -> str:
    """A log line without its timestamp and pool process number, so it reads the same on every run."""
    line = re.sub(r"^\[\d{4}-[^:]*:\d\d:\d\d,\d+: ", "[", line)
    return re.sub(r"ForkPoolWorker-\d+", "ForkPoolWorker-N", line)


def log_after(node, pattern: str, since: int, lines: int = 1, timeout: float = 10) -> list[str]:
    """Wait for a log line matching `pattern` (after line `since`) and return it with the next lines."""
    node.wait_for_log(pattern, timeout, since=since)

    def read() -> tuple[list[str], int]:
        text = node.logs().splitlines()[since:]
        return text, next(i for i, line in enumerate(text) if re.search(pattern, line))

    # a multi-line record reaches the log a line at a time: up to 2 s more for its next lines
    text, first = read_until(read, lambda seen: len(seen[0]) >= seen[1] + lines, timeout=2, step=0.02)
    return [tidy(line) for line in text[first:first + lines]]


def producer_without_backend(stack: Stack) -> Celery:
    """A producer on the stack's broker that has no result backend, as many web apps are configured."""
    settings = stack_settings(stack.broker.url, stack.namespace)
    settings.pop("result_backend")
    producer = Celery("producer", set_as_current=False)
    producer.conf.update(settings)
    return producer


def answer(method, *args, timeout: float = 10) -> dict:
    """Call an inspect method (``inspect.registered``) until a worker replies: a worker that has just
    printed "ready." may not be listening to broadcasts yet, and a broadcast nobody hears is lost."""
    return read_until(lambda: method(*args), timeout=timeout, step=0) or {}  # each call waits for replies itself


def wait_state(result, states: tuple[str, ...], timeout: float = 10) -> str:
    """Poll a result until it reaches one of `states` (or the deadline); return the state seen last."""
    return read_until(lambda: result.state, lambda state: state in states, timeout, step=POLL)


def option_value(text: str | None) -> int | str | None:
    """An attribute value as ``inspect registered`` prints it: a number, else the text; None when it is left out
    (Celery prints no attribute whose value is None, as ``max_retries=None``: no limit)."""
    if text is None:
        return None
    return int(text) if text.lstrip("-").isdigit() else text


def retry_options(registered: list[str]) -> dict[str, tuple]:
    """{task: (max_retries, default_retry_delay)} from ``inspect registered`` lines asked for those two attributes."""
    options = {}
    for match in map(OPTIONS.match, registered):
        if match:
            fields = dict(field.partition("=")[::2] for field in (match[2] or "").split())
            options[match[1]] = (option_value(fields.get("max_retries")), option_value(fields.get("default_retry_delay")))
    return options


def eta_of(scheduled: dict | None, task_id: str) -> datetime | None:
    """The ETA of `task_id` in an ``inspect().scheduled()`` reply (None: no worker holds it yet)."""
    for entries in (scheduled or {}).values():
        for entry in entries:
            if entry["request"]["id"] == task_id:
                return datetime.fromisoformat(entry["eta"])
    return None


def printed(script: str) -> list:
    """The JSON a Python script prints last, run in a fresh interpreter."""
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=30, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def run_each(scripts: list[str]) -> list[list]:
    """What each script prints (`printed`), two at a time."""
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(printed, scripts))
