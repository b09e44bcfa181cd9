"""Lesson 03's plumbing: its stack, the broker's queue counts, a worker's log after a pattern, a producer without a backend."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from celery import Celery

from celerylab.polling import read_until
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
