"""Lesson 05's notebook helpers: stacks with N Beats, a measuring window, runs named by the Beat that sent them, the lock."""
from __future__ import annotations

import time
from collections import Counter

from celerylab import polling
from celerylab.appdb import execute
from celerylab.stack import Stack, WorkerSpec

APP = "celerylab.lessons.l05_beat.tasks"
SCHEMA = [
    "CREATE TABLE IF NOT EXISTS runs (sender INTEGER, parent INTEGER, sent_at DOUBLE PRECISION, ran_at DOUBLE PRECISION)",
    "CREATE TABLE IF NOT EXISTS emails (period TEXT, sent_at DOUBLE PRECISION, sender INTEGER)",
    "CREATE TABLE IF NOT EXISTS summary_claims (period TEXT PRIMARY KEY)",
    "CREATE TABLE IF NOT EXISTS spans (task_id TEXT, pid INTEGER, started DOUBLE PRECISION, ended DOUBLE PRECISION)",
]
PERIOD_SECONDS = 2  # "a week", shortened so that a few periods fit in seconds
PREFORK = WorkerSpec(pool="prefork", concurrency=2)


def stack_options(**options) -> dict:
    """Stack.start options for this lesson: a prefork worker, the database, short summary periods."""
    options.setdefault("workers", [PREFORK])
    options.setdefault("timeline", False)
    options.setdefault("env", {"L05_PERIOD_SECONDS": PERIOD_SECONDS})
    return {"database": SCHEMA, **options}


def start(app: str = APP, **options) -> Stack:
    """A live stack for this lesson: broker, prefork worker, the database, and `beats=N` Beats."""
    return Stack.start(app, **stack_options(**options))


def wait_window(seconds: float, stacks=()) -> tuple[float, float]:
    """The measuring window: the interval [t0, t1) whose sends are counted (the window is the point).

    With `stacks`, the window opens once every Beat of each (standalone or embedded with -B) has sent a first
    time: a Beat that is still starting is not a Beat that does not send (bounded wait)."""
    polling.until(lambda: all(every_beat_sent(stack) for stack in stacks), timeout=60)
    t0 = time.time()
    time.sleep(seconds)
    return t0, time.time()


def add_once_sent(stack: Stack, spec: WorkerSpec):
    """Start one more worker once every Beat of the stack has sent, so has written its schedule file (bounded wait).

    Two Beats that open one new schedule file at the same instant can break it for each other and die at start
    (benchmarks/beat_shared_schedule.py): the second one starts after the first has written it."""
    polling.until(lambda: every_beat_sent(stack), timeout=60)
    return stack.add_worker(spec)


def every_beat_sent(stack: Stack) -> bool:
    """Each Beat of the stack (standalone or embedded with -B) has sent at least once."""
    return senders_so_far(stack) >= beats_of(stack)


def beats_of(stack: Stack) -> int:
    """How many Beats the stack runs: its own, and one in each worker started with -B."""
    return len(stack.beats) + sum("-B" in worker.spec.extra_args for worker in stack.workers)


def senders_so_far(stack: Stack) -> int:
    """How many processes have sent a periodic task on this stack."""
    return execute(stack.db(), "SELECT COUNT(DISTINCT sender) FROM runs").fetchone()[0]


def runs(stack: Stack, t0: float, t1: float, settle: float = 5.0) -> list[dict]:
    """Executions of messages sent in [t0, t1), once every one of them has run (bounded wait)."""
    def fetch():
        rows = execute(stack.db(), "SELECT sender, parent, sent_at, ran_at FROM runs "
                       "WHERE sent_at >= ? ORDER BY sent_at", (t0,)).fetchall()
        return rows
    rows = polling.read_until(fetch, lambda rows: every_sender_moved_on(rows, t1), settle, step=0.1)
    names = node_names(stack)
    return [{"who": names.get(sender) or names.get(parent) or "?", "sent": sent - t0, "ran": ran - t0}
            for sender, parent, sent, ran in rows if sent < t1]


def every_sender_moved_on(rows: list, t1: float) -> bool:
    """Each process that sent in the window has had a later send executed (so its earlier ones ran)."""
    senders = {row[0] for row in rows if row[2] < t1}
    later = {row[0] for row in rows if row[2] >= t1}
    return bool(later) and senders <= later


def steady(rows: list[dict], window: float) -> bool:
    """Each sender sent about once a second, and the executions add up: senders × window, within one per sender."""
    counts = per_sender(rows).values()
    return all(abs(n - window) <= 1 for n in counts) and abs(len(rows) - len(counts) * window) <= len(counts)


def node_names(stack: Stack) -> dict[int, str]:
    """pid -> 'beat1', 'beat2', ... and worker pids -> 'worker1 -B' (their embedded Beat's parent)."""
    names = {beat.pid: f"beat{beat.index}" for beat in stack.beats}
    names.update({worker.pid: f"worker{worker.index} -B" for worker in stack.workers})
    return names


def per_sender(rows: list[dict]) -> dict[str, int]:
    return dict(sorted(Counter(row["who"] for row in rows).items()))


def close_pairs(rows: list[dict], within: float = 0.25) -> int:
    """Pairs of consecutive sends, by different senders, less than `within` seconds apart."""
    return sum(1 for a, b in zip(rows, rows[1:]) if a["who"] != b["who"] and b["sent"] - a["sent"] < within)


def emails_per_period(stack: Stack, t0: float, t1: float) -> dict[str, int]:
    """E-mails in the fake inbox for each period that lies wholly inside [t0, t1)."""
    first, last = int(t0 // PERIOD_SECONDS) + 1, int(t1 // PERIOD_SECONDS)
    counts = Counter(period for (period,) in execute(stack.db(), "SELECT period FROM emails").fetchall())
    return {f"s{k}": counts.get(f"s{k}", 0) for k in range(first, last)}


def average_per_period(stack: Stack, t0: float, t1: float) -> int:
    """E-mails per complete period in [t0, t1), averaged and rounded (a send near a boundary may slip over)."""
    periods = emails_per_period(stack, t0, t1)
    return round(sum(periods.values()) / len(periods))


def send_gap(stack: Stack, t0: float, before: str, after: str, timeout: float = 10.0) -> float:
    """Seconds between the last send by `before` and the first send by `after` (waits for that one)."""
    def sends() -> dict[str, list[float]]:
        rows = runs(stack, t0, time.time() + 60, settle=0)
        return {who: [row["sent"] for row in rows if row["who"] == who] for who in (before, after)}

    sent = polling.read_until(sends, lambda sent: sent[after], timeout, step=0.1)
    return min(sent[after]) - max(sent[before])


def lock_holder(stack: Stack, exclude=(), timeout: float = 15.0):
    """The Beat whose log says ``beat: Acquired lock`` (RedBeat takes the lock in beat_init)."""
    holder = polling.until(lambda: next((beat for beat in stack.beats
                                         if beat not in exclude and beat.alive and "Acquired lock" in beat.logs), None),
                           timeout, step=0.02)
    if holder is None:
        raise TimeoutError("no Beat acquired the lock")
    return holder


def lock_ttl(stack: Stack) -> float:
    """Seconds the RedBeat lock still has to live (its key is under the stack's namespace)."""
    import redis

    client = redis.Redis.from_url(stack.broker.url)
    try:
        return client.pttl(f"{stack.namespace}redbeat:lock") / 1000
    finally:
        client.close()
