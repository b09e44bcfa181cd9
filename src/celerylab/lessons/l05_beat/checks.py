"""Lesson 05's exercise checks: the weekly summary under two real Beats; the schedule asked of the worker's Celery."""
from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
import time
from collections.abc import Sequence
from contextlib import contextmanager
from datetime import datetime, timedelta, timezone

from celerylab import polling
from celerylab.appdb import execute
from celerylab.checks import CheckRun, exercise
from celerylab.lessons.l05_beat import helpers
from celerylab.stack import WorkerSpec, elsewhere

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


KEPT = "the inbox keeps every e-mail"
APPEND_ONLY = {  # the fake inbox is the provider's: a task can add to it (by sending), never rewrite what it holds
    "sqlite": [f"CREATE TRIGGER emails_keep_{verb} BEFORE {verb} ON emails BEGIN SELECT RAISE(ABORT, '{KEPT}'); END"
               for verb in ("DELETE", "UPDATE")],
    "postgresql": [f"CREATE FUNCTION emails_keep() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                   f"RAISE EXCEPTION '{KEPT}'; END $$",
                   "CREATE TRIGGER emails_keep BEFORE UPDATE OR DELETE OR TRUNCATE ON emails "
                   "FOR EACH STATEMENT EXECUTE FUNCTION emails_keep()"],
}
GUARDS = {"sqlite": {"emails_keep_DELETE", "emails_keep_UPDATE"}, "postgresql": {"emails_keep"}}  # its triggers
INBOX = "(SELECT c.oid FROM pg_class c WHERE c.relname = 'emails' AND c.relnamespace = current_schema()::regnamespace)"
#: The fake inbox's whole definition, one (kind, name, text) row per part: the table and its columns, and everything
#: that can refuse or drop an insert, the check's own guards among them (indexes, constraints, triggers with the
#: functions they run and whether they are enabled, rules, row policies, tables inheriting from it).
DEFINITION = {
    "sqlite": ["SELECT type, name, sql FROM sqlite_master WHERE tbl_name = 'emails'"],
    "postgresql": [
        "SELECT 'table', c.relname::text, c.oid::text || ' ' || c.relkind::text || ' rls=' || c.relrowsecurity::text"
        f" || '/' || c.relforcerowsecurity::text || ' acl=' || COALESCE(c.relacl::text, '') FROM pg_class c "
        f"WHERE c.oid = {INBOX}",
        "SELECT 'column', a.attname::text, format_type(a.atttypid, a.atttypmod) || ' not null=' || a.attnotnull::text"
        " || ' generated=' || a.attgenerated::text || ' default=' || COALESCE(pg_get_expr(d.adbin, d.adrelid), '') "
        "FROM pg_attribute a LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
        f"WHERE a.attrelid = {INBOX} AND a.attnum > 0 AND NOT a.attisdropped",
        f"SELECT 'index', i.indexrelid::regclass::text, pg_get_indexdef(i.indexrelid) FROM pg_index i "
        f"WHERE i.indrelid = {INBOX}",
        f"SELECT 'constraint', conname::text, pg_get_constraintdef(oid) FROM pg_constraint WHERE conrelid = {INBOX}",
        "SELECT 'trigger', t.tgname::text, pg_get_triggerdef(t.oid) || ' enabled=' || t.tgenabled::text || ' ' || "
        f"pg_get_functiondef(t.tgfoid) FROM pg_trigger t WHERE t.tgrelid = {INBOX}",
        f"SELECT 'rule', rulename::text, pg_get_ruledef(oid) FROM pg_rewrite WHERE ev_class = {INBOX}",
        "SELECT 'policy', polname::text, polcmd::text || ' ' || COALESCE(pg_get_expr(polqual, polrelid), '') || ' ' || "
        f"COALESCE(pg_get_expr(polwithcheck, polrelid), '') FROM pg_policy WHERE polrelid = {INBOX}",
        f"SELECT 'inherited by', inhrelid::regclass::text, '' FROM pg_inherits WHERE inhparent = {INBOX}",
    ],
}


def dialect(connection) -> str:
    return "sqlite" if isinstance(connection, sqlite3.Connection) else "postgresql"


def inbox_definition(stack) -> list[tuple[str, str, str]]:
    """The fake inbox's definition as the database describes it now (DEFINITION), sorted."""
    connection = stack.db()
    try:
        return sorted((str(kind), str(name), str(text)) for query in DEFINITION[dialect(connection)]
                      for kind, name, text in connection.execute(query).fetchall())
    finally:
        connection.close()


def keep_inbox(stack) -> list[tuple[str, str, str]]:
    """The check's own process makes the fake inbox append-only (an answer cannot erase the e-mails it sent), and
    returns the inbox's definition as the check leaves it: the table, its columns and these guards, nothing else (an
    answer that had already run cannot add its own index or trigger to it)."""
    connection = stack.db()
    try:
        kind = dialect(connection)
        for statement in APPEND_ONLY[kind]:
            connection.execute(statement)
    finally:
        connection.close()
    return [part for part in inbox_definition(stack)
            if part[0] in ("table", "column") or (part[0] == "trigger" and part[1] in GUARDS[kind])]


def inbox_changes(stack, left: list[tuple[str, str, str]]) -> list[str]:
    """What the fake inbox's definition gained (+) or lost (-) since the check left it: an index, constraint,
    trigger or rule added can refuse or drop the provider's record of an e-mail it sent; a guard dropped or
    disabled lets an answer erase one. [] when the inbox is as the check left it."""
    now = inbox_definition(stack)
    return ([f"+ {kind} {name}: {text[:160]}" for kind, name, text in now if (kind, name, text) not in left]
            + [f"- {kind} {name}: {text[:160]}" for kind, name, text in left if (kind, name, text) not in now])


def redis_forgets(stack, key: str) -> int:
    """The stack's Redis (the broker) loses what it held, as one with no persistence does when it restarts (lesson
    07): every key but kombu's bindings, which the workers declared as they started (on a Redis the stack shares
    with others, only the keys that name the period). How many were deleted."""
    import redis

    client = redis.Redis.from_url(stack.broker.url)
    try:
        shared = stack.broker.kind == "url"
        names = [name for name in client.scan_iter(count=1000)
                 if (key.encode() in name if shared else b"_kombu.binding" not in name)]
        return client.delete(*names) if names else 0
    finally:
        client.close()


ELSEWHERE = "elsewhere"  # the queue of the worker on another machine
#: How far behind the other machine's clock is: half a period, so that a copy it runs as the check's clock reaches
#: the next period (the two copies before it took 1.5 s of the period's 2) still reads the period the copies had.
BEHIND = helpers.PERIOD_SECONDS / 2


def start_elsewhere(stack):
    """One more worker, as on another machine: its own temp folder (its own /tmp where bwrap can run here), its
    clock BEHIND seconds behind the check's."""
    tmp = stack.workdir / "another-machine-tmp"
    tmp.mkdir(exist_ok=True)
    env = {"TMPDIR": str(tmp), "TEMP": str(tmp), "TMP": str(tmp)}
    return elsewhere.add_worker(stack, WorkerSpec(queues=(ELSEWHERE,), env=env), days=-BEHIND / 86400)


#: How many fresh periods copies_at_once may take for a third copy that ran, by its own clock, in the copies' period.
ATTEMPTS = 3


def copies_at_once(stack) -> tuple[int, bool, str, float]:
    """With the Beats stopped, two copies of one period sent together to the worker's two processes, then a third
    once they have ended: the period's e-mails, whether the two really ran at the same time in two processes, the
    period's key and when the copies ended (its row in `summary_claims` is read later: claim_rows)."""
    for beat in stack.beats:
        beat.terminate()
    period = helpers.PERIOD_SECONDS
    time.sleep(period - time.time() % period + period + 0.05)  # a period no Beat sent a copy of, just begun
    for _ in range(ATTEMPTS):
        key, copies, third_in_period = copies_of_one_period(stack)
        if third_in_period:
            break
        time.sleep(period - time.time() % period + 0.05)  # the third copy read the next period: again, in a fresh one
    connection = stack.db()
    try:
        emails = execute(connection, "SELECT COUNT(*) FROM emails WHERE period = ?", (key,)).fetchone()[0]
        spans = execute(connection, "SELECT pid, started, ended FROM spans WHERE task_id IN (?, ?)",
                        tuple(copy.id for copy in copies)).fetchall()
    finally:
        connection.close()
    return emails, overlapped(spans), key, time.time()


def claim_rows(stack, key: str, ended: float) -> int:
    """The period's rows in the stack database's `summary_claims` (where the statement keeps the claim: not a file or
    a key of one machine, which a worker elsewhere does not see), read CLAIM_KEPT seconds at least after its copies
    ended, with the worker still running (a claim swept or expired in seconds is gone by then)."""
    time.sleep(max(0.0, ended + CLAIM_KEPT - time.time()))
    connection = stack.db()
    try:
        return execute(connection, "SELECT COUNT(*) FROM summary_claims WHERE period = ?", (key,)).fetchone()[0]
    finally:
        connection.close()


def copies_of_one_period(stack) -> tuple[str, list, bool]:
    """Two copies of the period just begun, sent together, then a third once both have ended (a Beat that fires
    later in it, a redelivery), on another machine, once the broker's Redis has lost what it held: the period's key,
    the two copies' results, and whether the third copy ran while the other machine's clock still read that period."""
    period = helpers.PERIOD_SECONDS
    number = int(time.time() // period)
    key = f"s{number}"
    with writes_held(stack):  # the database is slow to write for a moment: both copies read it before either writes
        copies = [stack.app.send_task("ex.weekly_summary") for _ in range(2)]
        time.sleep(HOLD_WRITES)
    for copy in copies:
        copy.get(timeout=10, propagate=False)
    redis_forgets(stack, key)
    stack.app.send_task("ex.weekly_summary", queue=ELSEWHERE).get(timeout=10, propagate=False)
    return key, copies, int((time.time() - BEHIND) // period) == number


FAILING = "the database is failing (the check refuses writes to summary_claims)"
REFUSE_WRITES = {  # summary_claims can be read but not written: what a claim needs fails, a SELECT still answers
    "sqlite": [f"CREATE TRIGGER summary_claims_failing_{verb} BEFORE {verb} ON summary_claims "
               f"BEGIN SELECT RAISE(ABORT, '{FAILING}'); END" for verb in ("INSERT", "UPDATE")],
    "postgresql": [f"CREATE FUNCTION summary_claims_failing() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
                   f"RAISE EXCEPTION '{FAILING}'; END $$",
                   "CREATE TRIGGER summary_claims_failing BEFORE INSERT OR UPDATE ON summary_claims "
                   "FOR EACH STATEMENT EXECUTE FUNCTION summary_claims_failing()"],
}
ACCEPT_WRITES = {
    "sqlite": [f"DROP TRIGGER IF EXISTS summary_claims_failing_{verb}" for verb in ("INSERT", "UPDATE")],
    "postgresql": ["DROP TRIGGER IF EXISTS summary_claims_failing ON summary_claims",
                   "DROP FUNCTION IF EXISTS summary_claims_failing()"],
}
ASIDE = "summary_claims_unreachable"


def tables(connection) -> set[str]:
    """The tables of the stack database's schema."""
    if dialect(connection) == "sqlite":
        query = "SELECT name FROM sqlite_master WHERE type = 'table'"
    else:
        query = "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
    return {str(row[0]) for row in connection.execute(query).fetchall()}


@contextmanager
def claims_unwritable(connection):
    """summary_claims refuses every INSERT and UPDATE (a trigger of the check's), reads still answer."""
    for statement in REFUSE_WRITES[dialect(connection)]:
        connection.execute(statement)
    try:
        yield
    finally:
        for statement in ACCEPT_WRITES[dialect(connection)]:
            connection.execute(statement)


def claims_unreachable(connection, made: list[bool]):
    """summary_claims is renamed away: neither read nor written. When it comes back, a summary_claims an answer
    created in its place meanwhile (what it wrote while the database failed) is dropped, and `made` says so."""
    @contextmanager
    def outage():
        connection.execute(f"ALTER TABLE summary_claims RENAME TO {ASIDE}")
        try:
            yield
        finally:
            if "summary_claims" in tables(connection):
                made.append(True)
                cascade = "" if dialect(connection) == "sqlite" else " CASCADE"
                connection.execute(f"DROP TABLE summary_claims{cascade}")
            connection.execute(f"ALTER TABLE {ASIDE} RENAME TO summary_claims")
    return outage()


def copies_across_a_failure(stack, failure) -> tuple[int, int]:
    """In a fresh period, a copy that runs while `summary_claims` cannot be written (`failure(connection)`, a context
    manager: the database fails), then, with the table back, two copies sent together (one in each worker process)
    once it has ended: the e-mails the failing copy sent, and the period's e-mails in all. A copy that could not
    record its claim must send nothing, or a later copy sends the period a second time (whichever process runs it:
    what a process remembers is no claim)."""
    period = helpers.PERIOD_SECONDS
    time.sleep(period - time.time() % period + 0.05)  # a period no copy was sent in, just begun
    first = int(time.time() // period)
    connection = stack.db()
    try:
        def emails() -> int:
            keys = [f"s{n}" for n in range(first, int(time.time() // period) + 1)]  # under load it may reach the next
            return sum(execute(connection, "SELECT COUNT(*) FROM emails WHERE period = ?", (key,)).fetchone()[0]
                       for key in keys)

        with failure(connection):
            stack.app.send_task("ex.weekly_summary").get(timeout=10, propagate=False)
        during = emails()
        for copy in [stack.app.send_task("ex.weekly_summary") for _ in range(2)]:
            copy.get(timeout=10, propagate=False)
        return during, emails()
    finally:
        connection.close()


#: Seconds the claim of (4) must still be in summary_claims after its copies ended, the worker still running: a
#: claim that expires (or is swept) sooner lets a copy sent later in the week send it again.
CLAIM_KEPT = 5.0


SENT = "Sending due task weekly-summary"  # what Beat logs as it sends the entry


def summary_window(stack) -> tuple[float, float]:
    """The measuring window [t0, t1), SUMMARY_WINDOW long, opened once both Beats have sent the summary a first time
    (bounded wait): a Beat still starting is not a missed period."""
    polling.until(lambda: all(SENT in beat.logs for beat in stack.beats), timeout=60, step=0.1)
    t0 = time.time()
    time.sleep(SUMMARY_WINDOW)
    return t0, time.time()


def overlapped(spans: list) -> bool:
    """Two copies ran in two processes, each one starting before the other had ended."""
    return (len(spans) == 2 and spans[0][0] != spans[1][0]
            and max(span[1] for span in spans) < min(span[2] for span in spans))


@exercise("l05.summary_once")
def summary_once(run: CheckRun) -> None:
    env = {"L05_PERIOD_SECONDS": helpers.PERIOD_SECONDS, "L05_SEND_SECONDS": SLOW_SEND}
    with run.stack(**helpers.stack_options(beats=2, env=env)) as stack:
        inbox = keep_inbox(stack)
        start_elsewhere(stack)
        t0, t1 = summary_window(stack)
        periods = {key: n for key, n in helpers.emails_per_period(stack, t0, t1).items() if n}
        sends = sum(beat.logs.count(SENT) for beat in stack.beats)
        senders = sum(1 for beat in stack.beats if SENT in beat.logs)
        together, overlap, key, ended = copies_at_once(stack)
        _, after_refused = copies_across_a_failure(stack, claims_unwritable)
        made: list[bool] = []
        during, after_failure = copies_across_a_failure(stack, lambda connection: claims_unreachable(connection, made))
        claims = claim_rows(stack, key, ended)
        changed = inbox_changes(stack, inbox)
    run.expect("l05.check.beats_sent", 2, senders)
    counts = sorted(set(periods.values()))
    run.expect("l05.check.emails_per_period", [1], counts, passed=len(periods) >= 2 and counts == [1])
    run.expect("l05.check.sends", True, sends >= 2 * len(periods))
    run.expect("l05.check.copies_overlap", True, overlap)
    run.expect("l05.check.copies_at_once", 1, together)
    run.expect("l05.check.claim_row", 1, claims, seconds=CLAIM_KEPT)
    run.expect("l05.check.copies_after_refused_write", 1, after_refused)
    run.expect("l05.check.copies_after_failure", 1, after_failure, during=during, made=len(made))
    run.expect("l05.check.inbox_kept", [], changed)


PROBE = r"""
import importlib, json, os, pickle, sys, tempfile
from datetime import datetime, timedelta, timezone

from celery.beat import PersistentScheduler
from celery.schedules import maybe_schedule

app = importlib.import_module(sys.argv[1]).app
entries = app.conf.beat_schedule
out = {"entries": {}, "fires": [], "file": ""}
for name, spec in entries.items():
    try:
        pickle.loads(pickle.dumps(maybe_schedule(spec["schedule"], app=app)))  # what Beat's schedule file (shelve) needs
        stored = ""
    except Exception as error:  # noqa: BLE001 - the answer's schedule, whatever it raises, is reported
        stored = f"{type(error).__name__}: {error}"
    out["entries"][name] = {"task": spec.get("task"), "args": list(spec.get("args", ())), "stored": stored}
# What Beat runs: its PersistentScheduler merges the module's entries into its schedule file (shelve, pickle) and
# syncs it as it starts; from then on it reads the entries back from the file: a copy pickle made, not the module's.
kept = {}
if not any(entry["stored"] for entry in out["entries"].values()):
    with tempfile.TemporaryDirectory() as folder:
        try:
            scheduler = PersistentScheduler(app=app, schedule_filename=os.path.join(folder, "schedule"), lazy=False)
            try:
                kept = {name: entry.schedule for name, entry in scheduler.schedule.items()}
            finally:
                scheduler.close()
        except Exception as error:  # noqa: BLE001 - the answer's schedule, whatever it raises, is reported
            out["file"] = f"{type(error).__name__}: {error}"


def fires_of(schedule, start, end):
    step = timedelta(minutes=1)
    now, stop = datetime.fromisoformat(start), datetime.fromisoformat(end)
    last, fires = now - step, []
    while now < stop:
        schedule.nowfun = (lambda instant=now: instant)
        if schedule.is_due(last)[0]:
            fires.append(now.astimezone(timezone.utc).isoformat())
            last = now
        now += step
    return fires


moved = {}
for entry, start, end in json.loads(sys.argv[2]):
    if entry not in entries:
        out["fires"].append(None)
        continue
    given = maybe_schedule(entries[entry]["schedule"], app=app)
    schedule = kept.get(entry, given)
    fires = fires_of(schedule, start, end)
    if schedule is not given and entry not in moved and fires_of(given, start, end) != fires:
        moved[entry] = fires  # read back from the file, it fires at other times than the module's own object
    out["fires"].append(fires)
out["moved"] = moved
print(json.dumps(out))
"""


def probe(run: CheckRun, stack,
          queries: Sequence[tuple[str, datetime, float]]) -> tuple[dict, list[list[str] | None], str, dict]:
    """The answer's schedule read in a fresh process of the check's own, as Beat reads it (not by a task the answer's
    module could replace): each entry's task, args and whether it can be stored in Beat's schedule file; and, per
    query (entry, start, hours), when the entry fires (UTC, 'Mon 11:30'), imitating Beat with a fixed clock, on the
    copy Beat's own PersistentScheduler stored in its schedule file and read back (what a running Beat uses). Also
    the error Beat's scheduler raised on its file ('' if none), and the entries whose stored copy fires at other times
    than the module's own object: {entry: the stored copy's runs in the first query that differed}."""
    asked = [(entry, start.isoformat(), (start + timedelta(hours=hours)).isoformat()) for entry, start, hours in queries]
    done = subprocess.run([sys.executable, "-c", PROBE, run.module, json.dumps(asked)], capture_output=True,
                          text=True, timeout=300, cwd=run.workdir, env=stack.process_env())
    if done.returncode != 0:
        raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "schedule probe failed")
    out = json.loads(done.stdout.strip().splitlines()[-1])
    def shown(instants: list[str]) -> list[str]:
        return [f"{datetime.fromisoformat(i):%a %m-%d %H:%M}" for i in instants]

    fires = [None if instants is None else shown(instants) for instants in out["fires"]]
    return out["entries"], fires, out["file"], {entry: shown(got) for entry, got in out["moved"].items()}


def at(day: datetime, hour: int, minute: int = 0, days: int = 0) -> str:
    return f"{day + timedelta(days=days, hours=hour, minutes=minute):%a %m-%d %H:%M}"


TASKS = {"cleanup": "ops.cleanup", "weekly-summary": "email.send_weekly_summary",
         "daily-report": "report.build_daily", "stock-sync": "stock.sync"}
# "at any date": São Paulo on its own rules. Daylight saving (UTC-2) from 2016-10-16 to 2017-02-19, from 2017-10-15
# to 2018-02-18 and from 2018-11-04 to 2019-02-17; none since (Brazil dropped it in 2019).
DST_DAYS = [datetime(2016, 10, 17, tzinfo=UTC), datetime(2017, 2, 13, tzinfo=UTC), datetime(2017, 10, 16, tzinfo=UTC),
            datetime(2018, 2, 12, tzinfo=UTC), datetime(2018, 12, 7, tzinfo=UTC), datetime(2019, 1, 28, tzinfo=UTC)]
STANDARD_DAYS = [datetime(2017, 2, 20, tzinfo=UTC), datetime(2017, 10, 9, tzinfo=UTC),
                 datetime(2018, 2, 19, tzinfo=UTC), datetime(2018, 10, 29, tzinfo=UTC),
                 datetime(2019, 2, 18, tzinfo=UTC), datetime(2019, 11, 4, tzinfo=UTC),
                 datetime(2021, 1, 4, tzinfo=UTC), datetime(2030, 12, 2, tzinfo=UTC)]  # Mondays but 2018-12-07
# "every 15 minutes, every day": the nights São Paulo's clocks changed, at 02:00 UTC going back (the local hour from
# 23:00 happens twice) and at 03:00 UTC going forward (00:00 becomes 01:00); each night from 01:00 to 05:00 UTC.
CHANGE_NIGHTS = [datetime(2016, 2, 21, tzinfo=UTC), datetime(2017, 2, 19, tzinfo=UTC), datetime(2018, 2, 18, tzinfo=UTC),
                 datetime(2019, 2, 17, tzinfo=UTC), datetime(2016, 10, 16, tzinfo=UTC),
                 datetime(2017, 10, 15, tzinfo=UTC), datetime(2018, 11, 4, tzinfo=UTC)]
NIGHT = (1, 4)  # hours (UTC): from 01:00, for 4 hours


def gaps(fires: list[str] | None) -> list[int] | None:
    """The real minutes between consecutive runs ('Mon 12-07 00:15' as probe() shows them, all in one year: 2000 has
    a 29 February)."""
    if fires is None:
        return None
    instants = [datetime.strptime(f"2000 {fire[4:]}", "%Y %m-%d %H:%M") for fire in fires]
    return [int((b - a).total_seconds() // 60) for a, b in zip(instants, instants[1:])]


def every_quarter(hours: int) -> list[int]:
    """"Every 15 minutes ... never more than 15 real minutes between two runs", at whichever minute of the clock (an
    interval counts from Beat's start, a crontab from the hour): in `hours` hours from any instant, 4 runs an hour,
    each 15 real minutes after the one before."""
    return [15] * (4 * hours - 1)


@exercise("l05.sao_paulo_schedule")
def sao_paulo_schedule(run: CheckRun) -> None:
    july = datetime(2027, 7, 9, tzinfo=UTC)  # a Friday
    saturday = july + timedelta(days=1, hours=14)
    queries = [("weekly-summary", MONDAY - timedelta(days=1), 24 * 8 + 12), ("daily-report", MONDAY, 48),
               ("stock-sync", MONDAY, 1), ("cleanup", MONDAY, 48)]
    hidden = run.graded(6)
    if hidden:
        # "every day", "at any time of year", "every 15 minutes": a July weekend, far from the visible Monday
        queries += [("daily-report", july, 72), ("cleanup", july, 72), ("stock-sync", saturday, 1)]
        # an hour earlier in UTC than today while São Paulo kept daylight saving, the cleanup still at 03:00 UTC
        queries += [(entry, day, 48) for day in DST_DAYS + STANDARD_DAYS for entry in ("daily-report", "cleanup")]
        queries += [("weekly-summary", day - timedelta(days=day.weekday()), 24) for day in DST_DAYS + STANDARD_DAYS]
        queries += [("stock-sync", night + timedelta(hours=NIGHT[0]), NIGHT[1]) for night in CHANGE_NIGHTS]
    with run.stack(workers=[WorkerSpec()], timeline=False) as stack:
        entries, fired, schedule_file, moved = probe(run, stack, queries)
    run.expect("l05.check.tasks", TASKS, {name: entries.get(name, {}).get("task") for name in TASKS})
    broken = {name: entry["stored"] for name, entry in entries.items() if entry["stored"]}
    if schedule_file:
        broken["celery.beat.PersistentScheduler"] = schedule_file
    run.expect("l05.check.stored", {}, broken)
    run.expect("l05.check.stored_fires", {}, moved)
    weekly, daily, sync, cleanup, *more = fired
    run.expect("l05.check.weekly", [at(MONDAY, 11, 30), at(MONDAY, 11, 30, days=7)], weekly)
    run.expect("l05.check.daily", [at(MONDAY, 9), at(MONDAY, 9, days=1)], daily)
    run.expect("l05.check.sync", every_quarter(1), gaps(sync), runs=", ".join(sync or []))
    run.expect("l05.check.sync_args", ["main_supplier"], entries.get("stock-sync", {}).get("args"))
    run.expect("l05.check.cleanup", [at(MONDAY, 3), at(MONDAY, 3, days=1)], cleanup)
    if hidden:
        daily_july, cleanup_july, sync_july, *rest = more
        run.expect("l05.check.daily", [at(july, 9, days=d) for d in range(3)], daily_july, hidden=True)
        run.expect("l05.check.cleanup", [at(july, 3, days=d) for d in range(3)], cleanup_july, hidden=True)
        run.expect("l05.check.sync", every_quarter(1), gaps(sync_july), hidden=True,
                   runs=", ".join(sync_july or []))
        days = DST_DAYS + STANDARD_DAYS
        daily_rest, cleanup_rest = rest[0:2 * len(days):2], rest[1:2 * len(days):2]
        weekly_rest, sync_nights = rest[2 * len(days):3 * len(days)], rest[3 * len(days):]
        offset = {day: 0 if day in STANDARD_DAYS else -1 for day in days}  # hours to UTC, against today's
        run.expect("l05.check.daily", {f"{day:%Y-%m-%d}": [at(day, 9 + offset[day], days=d) for d in range(2)]
                                       for day in days},
                   {f"{day:%Y-%m-%d}": got for day, got in zip(days, daily_rest)}, hidden=True)
        run.expect("l05.check.cleanup", {f"{day:%Y-%m-%d}": [at(day, 3, days=d) for d in range(2)] for day in days},
                   {f"{day:%Y-%m-%d}": got for day, got in zip(days, cleanup_rest)}, hidden=True)
        mondays = [day - timedelta(days=day.weekday()) for day in days]
        run.expect("l05.check.weekly", {f"{m:%Y-%m-%d}": [at(m, 11 + offset[day], 30)] for m, day in zip(mondays, days)},
                   {f"{m:%Y-%m-%d}": got for m, got in zip(mondays, weekly_rest)}, hidden=True)
        night_of = [f"{night + timedelta(hours=NIGHT[0]):%Y-%m-%d %H:%M}-{NIGHT[0] + NIGHT[1]:02d}:00"
                    for night in CHANGE_NIGHTS]  # the nights São Paulo's clocks changed, 01:00 to 05:00 UTC
        run.expect("l05.check.sync", {night: every_quarter(NIGHT[1]) for night in night_of},
                   {night: gaps(got) for night, got in zip(night_of, sync_nights)}, hidden=True,
                   runs="; ".join(f"{got[0]} ... {got[-1]}" if got else "-" for got in sync_nights))
