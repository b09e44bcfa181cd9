"""Lesson 03's plumbing: its stack, the broker's queue counts, a worker's log after a pattern, a producer without a backend."""
from __future__ import annotations

import json
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

from celery import Celery

from celerylab.stack import Stack, WorkerSpec
from celerylab.stack.appconfig import stack_settings

APP = "celerylab.lessons.l03_silent_defects.tasks"
POLL = 0.05


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
    deadline = time.monotonic() + 2  # a multi-line record reaches the log a line at a time
    while True:
        text = node.logs().splitlines()[since:]
        first = next(i for i, line in enumerate(text) if re.search(pattern, line))
        if len(text) >= first + lines or time.monotonic() > deadline:
            return [tidy(line) for line in text[first:first + lines]]
        time.sleep(0.02)


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
    deadline = time.monotonic() + timeout
    while True:
        replies = method(*args)
        if replies or time.monotonic() > deadline:
            return replies or {}


def wait_state(result, states: tuple[str, ...], timeout: float = 10) -> str:
    """Poll a result until it reaches one of `states` (or the deadline); return the state seen last."""
    deadline = time.monotonic() + timeout
    state = result.state
    while state not in states and time.monotonic() < deadline:
        time.sleep(POLL)
        state = result.state
    return state


PROBE = """
import json
from celery import Celery
SHOP = "celerylab.lessons.l03_silent_defects.shop"
app = Celery("probe", set_as_current=False)
{call}
app.loader.import_default_modules()
print(json.dumps(sorted(name for name in app.tasks if not name.startswith("celery."))))
"""


def registered_after(call: str) -> list[str]:
    """The tasks an app registers after `call` (code using `app` and `SHOP`), in a fresh interpreter, as a worker starts."""
    out = subprocess.run([sys.executable, "-c", PROBE.format(call=call)], capture_output=True, text=True,
                         timeout=30, check=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def registered_after_each(calls: list[str]) -> list[list[str]]:
    with ThreadPoolExecutor(max_workers=2) as pool:
        return list(pool.map(registered_after, calls))
