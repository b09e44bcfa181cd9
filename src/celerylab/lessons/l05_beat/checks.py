"""Lesson 05's exercise checks: the weekly summary under two real Beats; the schedule asked of the worker's Celery."""
from __future__ import annotations

import sqlite3
import time
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

from celerylab.appdb import execute
from celerylab.checks import CheckRun, exercise
from celerylab.lessons.l05_beat import helpers
from celerylab.stack import WorkerSpec

SUMMARY_WINDOW = 7.0  # seconds: three or four 2-second periods, two of them complete at least
SLOW_SEND = 0.5  # seconds the provider takes: two copies started together are both inside it
UTC = timezone.utc
MONDAY = datetime(2026, 12, 7, tzinfo=UTC)


HOLD_WRITES = 1.0  # seconds the check holds the database's writes while two copies start: both read before either writes


@contextmanager
def writes_held(stack):
    """Another connection holds the right to write to `summary_claims` (reads still go through): a copy that reads
    the table, then writes, has read before the other copy's write, however close together the two ran."""
    connection = stack.db()
    try:
        if isinstance(connection, sqlite3.Connection):
            connection.execute("BEGIN IMMEDIATE")
        else:
            connection.execute("BEGIN")
            connection.execute("LOCK TABLE summary_claims IN EXCLUSIVE MODE")
        yield
    finally:
        connection.execute("ROLLBACK")
        connection.close()


def copies_at_once(stack) -> tuple[int, bool, int]:
    """With the Beats stopped, two copies of one period sent together to the worker's two processes, then a third
    once they have ended: the period's e-mails, whether the two really ran at the same time in two processes, and the
    period's rows in the stack database's `summary_claims` (where the statement keeps the claim: not a file or a
    key of one machine, which a worker elsewhere does not see)."""
    for beat in stack.beats:
        beat.terminate()
    period = helpers.PERIOD_SECONDS
    time.sleep(period - time.time() % period + period + 0.05)  # a period no Beat sent a copy of, just begun
    key = f"s{int(time.time() // period)}"
    with writes_held(stack):  # the database is slow to write for a moment: both copies read it before either writes
        copies = [stack.app.send_task("ex.weekly_summary") for _ in range(2)]
        time.sleep(HOLD_WRITES)
    for copy in copies:
        copy.get(timeout=10, propagate=False)
    # and a copy of the same period after both have ended (a Beat that fires later in it, a redelivery)
    stack.app.send_task("ex.weekly_summary").get(timeout=10, propagate=False)
    connection = stack.db()
    try:
        emails = execute(connection, "SELECT COUNT(*) FROM emails WHERE period = ?", (key,)).fetchone()[0]
        claims = execute(connection, "SELECT COUNT(*) FROM summary_claims WHERE period = ?", (key,)).fetchone()[0]
        spans = execute(connection, "SELECT pid, started, ended FROM spans WHERE task_id IN (?, ?)",
                        tuple(copy.id for copy in copies)).fetchall()
    finally:
        connection.close()
    return emails, overlapped(spans), claims


def copies_across_a_failure(stack) -> int:
    """In a fresh period, a copy that runs while `summary_claims` cannot be written (renamed away: the database
    fails), then, with the table back, two copies sent together (one in each worker process) once it has ended: the
    period's e-mails. A copy that could not record its claim must send nothing, or a later copy sends the period a
    second time (whichever process runs it: what a process remembers is no claim)."""
    period = helpers.PERIOD_SECONDS
    time.sleep(period - time.time() % period + 0.05)  # a period no copy was sent in, just begun
    first = int(time.time() // period)
    connection = stack.db()
    try:
        execute(connection, "ALTER TABLE summary_claims RENAME TO summary_claims_unreachable")
        try:
            stack.app.send_task("ex.weekly_summary").get(timeout=10, propagate=False)
        finally:
            execute(connection, "ALTER TABLE summary_claims_unreachable RENAME TO summary_claims")
        for copy in [stack.app.send_task("ex.weekly_summary") for _ in range(2)]:
            copy.get(timeout=10, propagate=False)
        keys = [f"s{n}" for n in range(first, int(time.time() // period) + 1)]  # under load it may reach the next
        return sum(execute(connection, "SELECT COUNT(*) FROM emails WHERE period = ?", (key,)).fetchone()[0]
                   for key in keys)
    finally:
        connection.close()


def overlapped(spans: list) -> bool:
    """Two copies ran in two processes, each one starting before the other had ended."""
    return (len(spans) == 2 and spans[0][0] != spans[1][0]
            and max(span[1] for span in spans) < min(span[2] for span in spans))


@exercise("l05.summary_once")
def summary_once(run: CheckRun) -> None:
    env = {"L05_PERIOD_SECONDS": helpers.PERIOD_SECONDS, "L05_SEND_SECONDS": SLOW_SEND}
    with run.stack(**helpers.stack_options(beats=2, env=env)) as stack:
        t0, t1 = helpers.wait_window(SUMMARY_WINDOW, stacks=[stack])  # both Beats sending: a slow start is not a missed period
        periods = {key: n for key, n in helpers.emails_per_period(stack, t0, t1).items() if n}
        sends = sum(beat.logs.count("Sending due task weekly-summary") for beat in stack.beats)
        senders = sum(1 for beat in stack.beats if "Sending due task weekly-summary" in beat.logs)
        together, overlap, claims = copies_at_once(stack)
        after_failure = copies_across_a_failure(stack)
    run.expect("l05.check.beats_sent", 2, senders)
    counts = sorted(set(periods.values()))
    run.expect("l05.check.emails_per_period", [1], counts, passed=len(periods) >= 2 and counts == [1])
    run.expect("l05.check.sends", True, sends >= 2 * len(periods))
    run.expect("l05.check.copies_overlap", True, overlap)
    run.expect("l05.check.copies_at_once", 1, together)
    run.expect("l05.check.claim_row", 1, claims)
    run.expect("l05.check.copies_after_failure", 1, after_failure)


def fires(stack, entry: str, start: datetime, hours: float) -> list[str]:
    """When the worker's own schedule fires `entry` between `start` and `start + hours` (UTC, 'Mon 11:30')."""
    end = start + timedelta(hours=hours)
    instants = stack.app.send_task("l05.schedule_fires", (entry, start.isoformat(), end.isoformat())).get(timeout=30)
    return [f"{datetime.fromisoformat(i):%a %m-%d %H:%M}" for i in instants]


def at(day: datetime, hour: int, minute: int = 0, days: int = 0) -> str:
    return f"{day + timedelta(days=days, hours=hour, minutes=minute):%a %m-%d %H:%M}"


@exercise("l05.sao_paulo_schedule")
def sao_paulo_schedule(run: CheckRun) -> None:
    with run.stack(workers=[WorkerSpec()], timeline=False) as stack:
        weekly = fires(stack, "weekly-summary", MONDAY - timedelta(days=1), 24 * 8 + 12)
        run.expect("l05.check.weekly", [at(MONDAY, 11, 30), at(MONDAY, 11, 30, days=7)], weekly)
        daily = fires(stack, "daily-report", MONDAY, 48)
        run.expect("l05.check.daily", [at(MONDAY, 9), at(MONDAY, 9, days=1)], daily)
        sync = fires(stack, "stock-sync", MONDAY, 1)
        run.expect("l05.check.sync", [at(MONDAY, 0, m) for m in (0, 15, 30, 45)], sync)
        args = stack.app.send_task("l05.entry_args", ("stock-sync",)).get(timeout=30)
        run.expect("l05.check.sync_args", ["main_supplier"], args)
        cleanup = fires(stack, "cleanup", MONDAY, 48)
        run.expect("l05.check.cleanup", [at(MONDAY, 3), at(MONDAY, 3, days=1)], cleanup)
        if run.graded(6):
            # "every day", "at any time of year", "every 15 minutes": a July weekend, far from the visible Monday
            july = datetime(2027, 7, 9, tzinfo=UTC)  # a Friday
            run.expect("l05.check.daily", [at(july, 9, days=d) for d in range(3)],
                       fires(stack, "daily-report", july, 72), hidden=True)
            run.expect("l05.check.cleanup", [at(july, 3, days=d) for d in range(3)],
                       fires(stack, "cleanup", july, 72), hidden=True)
            saturday = july + timedelta(days=1, hours=14)
            run.expect("l05.check.sync", [at(saturday, 0, m) for m in (0, 15, 30, 45)],
                       fires(stack, "stock-sync", saturday, 1), hidden=True)
            # "at any date": São Paulo on its own rules, on a date it kept daylight saving (UTC-2): the office's hours
            # an hour earlier in UTC than today, the cleanup still at 03:00 UTC
            dst = datetime(2018, 12, 7, tzinfo=UTC)  # a Friday; São Paulo on UTC-2 from 2018-11-04 to 2019-02-16
            run.expect("l05.check.daily", [at(dst, 8, days=d) for d in range(3)],
                       fires(stack, "daily-report", dst, 72), hidden=True)
            run.expect("l05.check.cleanup", [at(dst, 3, days=d) for d in range(3)],
                       fires(stack, "cleanup", dst, 72), hidden=True)
            run.expect("l05.check.weekly", [at(dst, 10, 30, days=3)],
                       fires(stack, "weekly-summary", dst, 24 * 6), hidden=True)
