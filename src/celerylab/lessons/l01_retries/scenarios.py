"""Lesson 01's longer experiments: retry timelines, wasted retries, Retry-After, key TTL, a lock on nothing."""
from __future__ import annotations

import re
import threading
import uuid

from celerylab import appdb, polling
from celerylab.lessons.l01_retries import helpers
from celerylab.stack import Stack


def retry_timeline(stack: Stack, per_kind: int = 4, timeout: float = 30) -> dict[str, list]:
    """Send `per_kind` tasks with and without jitter to a provider that is down; return each task's attempts."""
    provider = helpers.email(stack)
    provider.reset()
    provider.fault("unavailable", times=1000)
    sent = {kind: [stack.app.send_task(f"l01.{kind}", (i,)) for i in range(per_kind)]
            for kind in ("flaky", "flaky_jitter")}
    for results in sent.values():
        for result in results:
            result.get(timeout=timeout, propagate=False)
            settled(stack, result.id)
    provider.reset()
    return {kind: [attempt_record(stack, r) for r in results] for kind, results in sent.items()}


def attempt_record(stack: Stack, result) -> dict:
    """One finished task: its attempts' start times, the countdown Celery chose before each retry, its end."""
    attempts = stack.timeline.attempts(result.id)
    return {"attempts": attempts, "countdowns": countdowns(stack, result.id, len(attempts) - 1),
            "state": result.state, "error": type(result.result).__name__}


def countdowns(stack: Stack, task_id: str, retries: int, timeout: float = 10) -> list[float]:
    """The wait Celery chose for each retry of one task, as the worker logs it: `Task …[id] retry: Retry in 2s`."""
    line = re.compile(rf"\[{re.escape(task_id)}\] retry: Retry in (\d+(?:\.\d+)?)s")
    found = polling.read_until(lambda: line.findall(stack.workers[0].logs), lambda seen: len(seen) >= retries,
                               timeout=timeout)
    return [int(seconds) if seconds.isdigit() else float(seconds) for seconds in found]


def settled(stack: Stack, task_id: str, timeout: float = 10) -> None:
    """Wait until the timeline holds the task's final event (events can trail the stored result)."""
    kinds = ("task-succeeded", "task-failed")
    stack.timeline.wait_for_any(kinds, task_id, timeout=timeout)


def waits(attempts: list[float]) -> list[float]:
    return [round(b - a, 2) for a, b in zip(attempts, attempts[1:])]


def wasted_retries(stack: Stack, task: str, to: str = "not-an-address", timeout: float = 30) -> dict:
    provider = helpers.email(stack)
    provider.reset()
    result = stack.app.send_task(task, (to,))
    result.get(timeout=timeout, propagate=False)
    settled(stack, result.id)
    attempts = stack.timeline.attempts(result.id)
    return {"requests": provider.stats()["requests"], "state": result.state,
            "error": type(result.result).__name__, "seconds": attempts[-1] if attempts else 0.0}


def retry_after(stack: Stack, times: int = 2, seconds: int = 2, timeout: float = 30) -> dict:
    hook = helpers.webhook(stack)
    hook.reset()
    hook.limit(times=times, retry_after=seconds)
    result = stack.app.send_task("l01.notify_webhook", ({"order": 1},))
    result.get(timeout=timeout, propagate=False)
    calls = hook.calls()
    return {"statuses": [c["status"] for c in calls], "state": result.state,
            "countdowns": countdowns(stack, result.id, len(calls) - 1),
            "gaps": [round(b["at"] - a["at"], 1) for a, b in zip(calls, calls[1:])]}


def key_ttl_pitfall(stack: Stack) -> dict:
    """Charge once, let a cleanup delete the key, run a reconciliation: count the charges."""
    connection = helpers.db(stack)
    event_id = f"payment-{uuid.uuid4().hex[:8]}"
    first = stack.app.send_task("l01.charge_once", (7, event_id)).get(timeout=10)
    replay = stack.app.send_task("l01.charge_once", (7, event_id)).get(timeout=10)
    before = appdb.scalar(connection, "SELECT COUNT(*) FROM charges WHERE event_id = ?", (event_id,))
    appdb.execute(connection, "DELETE FROM processed_events WHERE created_at <= CURRENT_TIMESTAMP")
    reconciliation = stack.app.send_task("l01.charge_once", (7, event_id)).get(timeout=10)
    after = appdb.scalar(connection, "SELECT COUNT(*) FROM charges WHERE event_id = ?", (event_id,))
    connection.close()
    return {"first": first, "replay": replay, "charges_before_cleanup": before,
            "reconciliation": reconciliation, "charges_after_reconciliation": after}


PATTERNS = ("l01.welcome", "l01.welcome_checked", "l01.welcome_at_most_once")


def patterns_table(stack: Stack, tasks: tuple[str, ...] = PATTERNS) -> list[dict]:
    """Deliveries of each welcome variant under each fault: the lesson's central measurement."""
    rows = []
    for task in tasks:
        row = {"task": task}
        for fault in helpers.FAULTS:
            row[fault] = helpers.run_welcome(stack, task, fault, with_key=task != "l01.welcome")["deliveries"]
        rows.append(row)
    return rows


def outcome(stack: Stack, result, timeout: float = 30) -> dict:
    """A finished task as the lesson prints it: state, exception, runs counted, waits between attempts, countdowns."""
    result.get(timeout=timeout, propagate=False)
    settled(stack, result.id)
    error = type(result.result).__name__ if result.state == "FAILURE" else "-"
    attempts = stack.timeline.attempts(result.id)
    return {"state": result.state, "error": error, "runs": helpers.runs(stack, result.id),
            "waits": [round(w, 1) for w in waits(attempts)],
            "countdowns": countdowns(stack, result.id, len(attempts) - 1)}


def lock_on_nothing(stack: Stack, table: str) -> dict:
    """Two transactions run the notes' check at once: SELECT ... FOR UPDATE the key, then INSERT it (PostgreSQL)."""
    key = f"evt-{uuid.uuid4().hex[:8]}"
    both_looked = threading.Barrier(2)
    outcomes = []

    def one_run() -> None:
        connection = stack.db()
        try:
            with appdb.transaction(connection):
                found = appdb.execute(connection, f"SELECT 1 FROM {table} WHERE event_id = ? FOR UPDATE",
                                      (key,)).fetchone()
                both_looked.wait(10)
                if found is None:
                    appdb.execute(connection, f"INSERT INTO {table} (event_id) VALUES (?)", (key,))
            outcomes.append("inserted" if found is None else "skipped")
        except Exception as error:
            outcomes.append(type(error).__name__)
        finally:
            connection.close()

    threads = [threading.Thread(target=one_run) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    rows = helpers.count(stack, f"SELECT COUNT(*) FROM {table} WHERE event_id = ?", (key,))
    return {"table": table, "outcomes": sorted(outcomes), "rows": rows}
