"""What a task left to run later once it ended: the tasks its workers still hold, the task messages its broker keeps,
and the threads and child processes it left running in a worker's process (the pool's, where the task ran)."""
from __future__ import annotations

import json
import time

import psutil
import redis

from celerylab.stack.errors import ServiceError

#: How long, once a task has ended, the check waits for its workers to stop running anything (a handler that runs
#: after the final state was stored, such as on_failure, has then published what it sends) and to answer at all.
PATIENCE = 15.0
#: The pause between the two looks: a message the worker is taking from the queue at the first look (out of the
#: list, not yet in the `unacked` hash) is in one of them, or in the worker's memory, by the second.
SECOND_LOOK = 0.3


#: What left_for_later reports for a worker whose processes run more threads, or have more child processes, than
#: before the task was sent: work of the task's own going on after it ended (a thread or timer that calls the provider
#: later, a child process).
MORE_THREADS = "+threads/processes"


def running(stack) -> dict[int, int]:
    """Per worker (by its process id), the threads of its processes (the worker's, its pool's, any under them) plus
    how many processes run under it: taken before a task is sent, then given to left_for_later."""
    counts = {}
    for worker in stack.workers:
        try:
            root = psutil.Process(worker.pid)
            tree = [root, *root.children(recursive=True)]
            counts[worker.pid] = sum(process.num_threads() for process in tree) + len(tree)
        except psutil.Error:  # gone, or going: nothing to compare
            continue
    return counts


def left_for_later(stack, before: dict[int, int] | None = None) -> list[str]:
    """The names of the tasks still waiting to run once the stack's task has ended, sorted, each once; [] when none.
    Looked for in every worker (`inspect active`, `scheduled`: an ETA or countdown, `reserved`) and in the broker
    (every queue of the stack's key namespace, whatever its name, and the messages delivered but not acknowledged),
    whatever the task's name, its countdown or ETA. Waits first until no worker runs a task. `before`: the workers'
    threads and processes (`running`) taken before the task was sent; a worker that now runs more adds MORE_THREADS
    (a thread or process the task left behind, which may call the provider minutes later)."""
    _reply(stack, "active", lambda replies: not _names(replies))
    found: set[str] = set()
    for look in range(2):
        if look:
            time.sleep(SECOND_LOOK)
        for method in ("active", "scheduled", "reserved"):
            found.update(_names(_reply(stack, method, lambda replies: True)))
        found.update(broker_tasks(stack))
    if before is not None:
        now = running(stack)
        if any(now[pid] > count for pid, count in before.items() if pid in now):
            found.add(MORE_THREADS)
    return sorted(found)


def _reply(stack, method: str, done) -> dict:
    """Every worker's answer to one `inspect` request, asked again until all answer and `done(replies)` holds, or
    PATIENCE passes (then the last full answer; none at all is the check's own failure)."""
    deadline, timeout, last = time.monotonic() + PATIENCE, 1.0, None
    while True:
        replies = getattr(stack.app.control.inspect(timeout=timeout, limit=len(stack.workers)), method)() or {}
        if len(replies) >= len(stack.workers):
            last = replies
            if done(replies):
                return replies
        if time.monotonic() >= deadline:
            if last is None:
                raise ServiceError("l01.check.inspect_unanswered", seconds=round(PATIENCE))
            return last
        if len(replies) < len(stack.workers):
            timeout = min(2 * timeout, 5.0)
        time.sleep(0.05)


def _names(replies: dict) -> list[str]:
    """The task names in `inspect` answers (a scheduled entry holds its request under "request")."""
    names = []
    for entries in replies.values():
        for entry in entries or []:
            request = entry.get("request", entry) if isinstance(entry, dict) else {}
            names.append(str(request.get("name") or request.get("type") or "?"))
    return names


def broker_tasks(stack) -> list[str]:
    """The names of the task messages the broker holds under the stack's key namespace: in any list (a queue, with
    or without a priority suffix) and in the `unacked` hash (delivered to a worker, which holds it for its ETA)."""
    client = redis.Redis.from_url(stack.broker.url)
    names = []
    try:
        for key in client.scan_iter(match=_escaped(stack.namespace) + "*", count=500):
            kind = client.type(key)
            if kind == b"list":
                names += [name for raw in client.lrange(key, 0, -1) if (name := task_name(raw))]
            elif kind == b"hash" and key.endswith(b"unacked"):
                names += [name for raw in client.hvals(key) if (name := task_name(raw))]
    finally:
        client.close()
    return names


def _escaped(prefix: str) -> str:
    """A key prefix as a literal SCAN pattern."""
    return "".join(f"\\{char}" if char in "*?[]\\" else char for char in prefix)


def headers(raw: bytes | str) -> dict:
    """The headers of one raw Redis message (a queued message, or `unacked`'s [message, exchange, key]); {} for
    anything else (a reply to `inspect`, a value no task message)."""
    try:
        message = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return {}
    message = message[0] if isinstance(message, list) and message else message
    found = message.get("headers") if isinstance(message, dict) else None
    return found if isinstance(found, dict) else {}


def task_name(raw: bytes | str) -> str | None:
    """The task name a raw broker message carries; None for anything no task message."""
    name = headers(raw).get("task")
    return str(name) if name else None
