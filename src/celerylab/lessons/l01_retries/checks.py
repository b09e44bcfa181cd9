"""Lesson 01's exercise checks: each runs the learner's module on a live stack under the faults its statement names."""
from __future__ import annotations

import dataclasses
import json
import os
import re
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import uuid
from contextlib import closing, contextmanager
from pathlib import Path
from urllib.parse import urlsplit

import redis
from celery.exceptions import TimeoutError as ResultTimeout

from celerylab import appdb
from celerylab.checks import CheckRun, exercise
from celerylab.fakes.clients import EMAIL_FOOTER_ENV, EMAIL_URL_ENV
from celerylab.lessons.l01_retries import connects, helpers, keys_apart
from celerylab.lessons.l01_retries.leftovers import left_for_later, running
from celerylab.stack import WorkerSpec, database_clock, elsewhere
from celerylab.stack.broker_commands import BrokerCommands
from celerylab.stack.errors import ServiceError


@contextmanager
def started(run: CheckRun, **options):
    """The check's stack; what its temporary folders held once it was up (the stack's own files, not the tasks')."""
    with run.stack(**helpers.stack_options(timeline=False, **options)) as stack:
        LOCAL_FILES_BEFORE[id(stack)] = elsewhere.private_entries(stack)
        try:
            yield stack
        finally:
            LOCAL_FILES_BEFORE.pop(id(stack), None)


LOCAL_FILES_BEFORE: dict[int, set[str]] = {}


#: The welcome check's first worker keeps its local clock 12 h behind UTC; the deploy's 14 h ahead: whatever the
#: hour, the two workers' calendar days differ (the resend "days after the first sending", as a local date sees it).
#: Their PostgreSQL sessions take the same zones ($PGTZ): CURRENT_DATE read from the database differs too.
FIRST_ZONE = {"TZ": "Etc/GMT+12", "PGTZ": "Etc/GMT+12"}
DEPLOYED_ZONE = {"TZ": "Etc/GMT-14", "PGTZ": "Etc/GMT-14"}


#: How much later the deploy comes: its worker's wall clock (time.time, datetime.now, date.today) is this many days
#: ahead: another year, month, day and weekday, and, as it is no whole number of days (7 h 23 min 31 s more), another
#: hour of the day and minute of the hour: a key built from any of them has changed.
MONTHS_LATER = 400 + (7 * 3600 + 23 * 60 + 31) / 86400


def redeployed(stack, env: dict | None = None) -> None:
    """A deploy, months later: a new worker replaces the old one, as a new pod on another machine does: another node
    name and host name, its own clock (another time zone, MONTHS_LATER days ahead), its own /tmp and working folder
    (elsewhere.add_worker), the answer's code written again (written_again); `env` added to its environment."""
    old = stack.workers[0]
    old.stop()  # its whole process group: under bwrap, SIGTERM ends bwrap at once and would leave the pool's child,
    stack.workers.remove(old)  # which holds the broker connection, still there (taking messages no one runs)
    with written_again(elsewhere.code_folders(stack), MONTHS_LATER):
        elsewhere.add_worker(stack, dataclasses.replace(old.spec, name=None,
                                                        env={**old.spec.env, **DEPLOYED_ZONE, **(env or {})}),
                             days=MONTHS_LATER, before=LOCAL_FILES_BEFORE.get(id(stack)))


@contextmanager
def written_again(folders: list[str], days: float):
    """The modules of `folders` (the answer's, and its packages') as a deploy `days` later writes them: modified then,
    while the new worker starts and imports them (or the copy a deploy shows it: elsewhere.deployed_copy keeps their
    times); their own times back afterwards."""
    modules = [path for folder in folders for entry in Path(folder).iterdir()
               for path in ([entry] if entry.is_file() and entry.suffix == ".py" else
                            entry.rglob("*.py") if entry.is_dir() and (entry / "__init__.py").is_file() else [])]
    times, when = {}, time.time() + days * 86400
    for path in modules:
        try:
            status = path.stat()
            os.utime(path, (when, when))
        except OSError:
            continue
        times[path] = (status.st_atime, status.st_mtime)
    try:
        yield
    finally:
        for path, (accessed, modified) in times.items():
            try:
                os.utime(path, (accessed, modified))
            except OSError:
                continue


@exercise("l01.welcome_once")
def welcome_once(run: CheckRun) -> None:
    """The retry policy given (max_retries=3, retry_backoff=1, retry_jitter=False) kept, and no acks_late; (a) healthy,
    (b) slow_ack, (c) slow_reject, and (c) answered at once (the provider's own 504): one delivery, SUCCESS and
    nothing left to run later each; (c2) two timeouts in a row before accepting: SUCCESS, one delivery, 3 requests;
    (d) one event sent again as a new task after a worker restart, then another event of the same user: one e-mail
    each, the key the provider received for the first holding its id whole or looking like the whole hex digest of a
    hash of 256 bits or more (64, 96 or 128 digits, no block repeated, no run of one digit:
    keys_apart.whole_digest); (e) a provider that never accepts: FAILURE, no e-mail, 4 requests (1 + 3 retries) at
    least 1, 2 and 4 s apart (the policy's waits, as the provider saw them); (f) a provider answering 503, and one
    resetting the connection without an answer: FAILURE after one request each (no other retries); hidden: (b), (c)
    for user 2, 0.9 s, (b) answering later than the check waits for the task (no client timeout outlasts it), second
    events whose ids' digests share their first or last 8 hex digits (DIGEST_PAIRS: a key cut from a digest
    collides), then ex.welcome's body run for confusable events (ids differing only in punctuation, white space or
    Unicode normalisation; a user id and an event id written together; long ids differing only past their 64th or
    256th character; ids sharing their last 40 characters; ids differing only in emoji or CJK characters) and up to
    400 000 distinct ids of one user, some differing only in case (keys_apart.py, on a throwaway database: a key of
    32 bits or fewer, salted or not, collides): the first key that neither holds its event's id whole nor looks like
    a whole hex digest (across the digest keys too: no position the same in all: keys_apart.Spread) fails, and the
    first two events given one key are sent to the worker; (f) a provider no one listens at (connection refused):
    one connection attempt. (d)'s deploy moves the worker's clock months, hours and minutes ahead (MONTHS_LATER): a
    key built from the clock changes, and writes the answer's code again (a key built from its file's time changes).
    Once each (a), (b), (c), (c2), (e) and (f) ended, nothing is left to run later: no task in a worker (running,
    scheduled for a countdown or ETA, reserved), no task message in the broker, whatever its name, and no more
    threads or child processes in the worker's processes than before the task was sent (a thread or timer that calls
    the provider later) (leftovers.py). The first failed case ends the check."""
    cases = [("healthy", 1, None, False), ("slow_ack", 1, None, False), ("slow_reject", 1, None, False),
             ("fast_reject", 1, None, False)]
    with started(run, workers=[WorkerSpec(env=FIRST_ZONE)]) as stack:
        line = welcome_line(stack)
        if not (run.expect("l01.check.welcome_policy", GIVEN_POLICY, policy_of(line))
                & run.expect("l01.check.welcome_acks_late", False, acks_late_of(line))):
            return  # another policy changes how long (e) takes: 6 retries back off for a minute
        for fault, user_id, delay, hidden in cases:
            if not delivered_once(run, stack, fault, user_id, delay, hidden):
                return
        if not late_twice_succeeds(run, stack):
            return
        if not (events_keep_their_key(run, stack) and never_accepted_fails(run, stack)
                and unavailable_fails_at_once(run, stack)):
            return
        if run.graded(9 + 1 + len(DIGEST_PAIRS) + 2):
            for fault, user_id, delay in (("slow_ack", 2, 0.9), ("slow_reject", 2, 0.9), ("slow_ack", 3, VERY_LATE)):
                if not delivered_once(run, stack, fault, user_id, delay, True):
                    return
            if all(second_event_delivers(run, stack, pair) for pair in DIGEST_PAIRS) and keys_tell_apart(run, stack):
                with closing(connects.Counter()) as attempts:
                    refused_fails_at_once(run, stack, attempts)


#: The retry policy the answer cell gives ex.welcome, which the statement keeps: (autoretry_for's exceptions,
#: max_retries, retry_backoff's factor, retry_backoff_max: Celery's 600 s ceiling, which the cell does not change).
GIVEN_POLICY = ("TimeoutError", 3, 1, 600, False)
POLICY_FIELDS = ("max_retries", "retry_backoff", "retry_backoff_max", "retry_jitter", "acks_late",  # autoretry_for
                 "autoretry_for")                                                    # last: its value holds spaces
DEFAULT_BACKOFF_MAX = 600
#: How long the check keeps asking the workers for their registered tasks before it gives up (its own failure): a
#: worker just started may miss the first broadcast (Redis hands one only to the workers already subscribed), and
#: one on a loaded machine may answer after `inspect`'s first timeout.
POLICY_PATIENCE = 60.0


def welcome_line(stack, patience: float = POLICY_PATIENCE) -> str | None:
    """ex.welcome as a worker registered it (`inspect registered`, asked for POLICY_FIELDS): "ex.welcome
    [max_retries=3 ...]"; None: the workers answered, and none registered ex.welcome. Asked again, each time waiting
    longer, until a worker answers; no answer within `patience` seconds is the check's failure (ServiceError), never
    a failed criterion of the learner's."""
    deadline, timeout = time.monotonic() + patience, 3.0
    while True:
        replies = stack.app.control.inspect(timeout=timeout, limit=len(stack.workers)).registered(*POLICY_FIELDS)
        if replies:
            break
        if time.monotonic() >= deadline:
            raise ServiceError("l01.check.policy_unread", seconds=round(patience))
        timeout = min(2 * timeout, 10.0)
    return next((line for lines in replies.values() for line in lines if line.partition(" ")[0] == "ex.welcome"),
                None)


def registered_fields(line: str) -> tuple[dict[str, str], str]:
    """One `inspect registered` line's attributes before autoretry_for, and autoretry_for's exception names."""
    head, _, retried = line.partition(" ")[2].partition("autoretry_for=")
    return (dict(re.findall(r"(\w+)=([^\s\]]+)", head)),
            ", ".join(re.findall(r"<class '(?:[\w.]+\.)?(\w+)'>", retried)))


def policy_of(line: str | None) -> tuple | None:
    """ex.welcome's (autoretry_for's exception names, max_retries, backoff factor in whole seconds or None without
    backoff, retry_backoff_max, retry_jitter) from its registered line (Celery's factor is int(max(1,
    retry_backoff)), True is 1; no retry_backoff_max is Celery's 600, no retry_jitter its True); None: no line."""
    if line is None:
        return None
    fields, exceptions = registered_fields(line)
    retries, backoff = fields.get("max_retries"), fields.get("retry_backoff", "False")
    ceiling = fields.get("retry_backoff_max", str(DEFAULT_BACKOFF_MAX))
    jitter = fields.get("retry_jitter", "True") not in ("False", "0", "None")
    try:
        factor = None if backoff in ("False", "0", "0.0") else int(max(1.0, float(backoff == "True" or backoff)))
        return (exceptions, int(retries) if retries is not None else None, factor, int(float(ceiling)), jitter)
    except ValueError:  # not a number: as registered
        return (exceptions, retries, backoff, ceiling, jitter)


def acks_late_of(line: str | None) -> bool | None:
    """Whether ex.welcome acknowledges its message only after it ran (acks_late, or the app's task_acks_late, which
    Celery copies onto the task as it binds it): a worker lost mid-task then makes the broker deliver it again, a run
    the policy did not decide; None: no line."""
    if line is None:
        return None
    return registered_fields(line)[0].get("acks_late", "False") not in ("False", "0", "None")


def welcome_policy(stack) -> tuple | None:
    """ex.welcome's policy (policy_of) as the worker registered it; None: no worker registered ex.welcome."""
    return policy_of(welcome_line(stack))


#: How late the hidden (b) answers: past the time the check waits for the task, so a longer client timeout that waits
#: for the answer ends the task too late, and a shorter one times out and sends again; handling the late answer
#: (the client's own 0.3 s timeout, a retry, the provider's idempotency key) ends in about a second.
VERY_LATE = helpers.WELCOME_WAIT + 5.0


def delivered_once(run: CheckRun, stack, fault: str, user_id: int, delay, hidden: bool) -> bool:
    """(a), (b), (c): one e-mail and SUCCESS, and, once the task ended, nothing left to run later (leftovers.py): a
    send left running in a thread of the worker while the provider has not answered yet (a late answer: (b)) is work
    of the task's own going on after it ended."""
    threads = running(stack)
    outcome = helpers.run_welcome(stack, "ex.welcome", fault, user_id=user_id, delay=delay)
    left = left_for_later(stack, threads)
    return (run.expect(f"l01.check.deliveries.{fault}", 1, outcome["deliveries"], hidden=hidden)
            & run.expect(f"l01.check.state.{fault}", "SUCCESS", outcome["state"], hidden=hidden)
            & run.expect(f"l01.check.left_for_later.{fault}", [], left, hidden=hidden))


def events_keep_their_key(run: CheckRun, stack) -> bool:
    """(d): the same event sent again as a new task (another task id), months later (a deploy replaced the worker:
    another process, node name and calendar day; every Redis key set to expire within months is gone), delivers
    nothing new; a new event of the same user does. The two events'
    ids share their first 40 characters, as ids made by one sender do: only the whole id tells them apart."""
    provider = helpers.email(stack)
    provider.reset()
    prefix = f"user-5:welcome-after-signup:{uuid.uuid4().hex}:"
    event = f"{prefix}1"
    stack.app.send_task("ex.welcome", (5, event)).get(timeout=30, propagate=False)
    if not run.expect("l01.check.deliveries.first_event", 1, provider.stats()["deliveries"]):
        return False
    key = provider.outbox()[-1].get("key")
    if not run.expect("l01.check.key_holds_event_id", event, key, passed=keys_apart.holds_id(key, event),
                      event=repr(event)):
        return False
    # nothing a worker process kept in memory or on its disk survives, nor its name, nor its day, nor the day its
    # SQLite reads (SQLite runs in the worker's process, on the machine's clock: MONTHS_LATER too)
    redeployed(stack, {database_clock.DAYS_ENV: str(MONTHS_LATER)})
    months_pass(stack)  # months later: the broker's Redis has lost what it held
    for args in ((5, event), (5, f"{prefix}2")):
        stack.app.send_task("ex.welcome", args).get(timeout=30, propagate=False)
        if args[1] == event and not run.expect("l01.check.deliveries.resent_event", 1,
                                               provider.stats()["deliveries"]):
            return False
    return run.expect("l01.check.deliveries.second_event", 2, provider.stats()["deliveries"])


def late_twice_succeeds(run: CheckRun, stack) -> bool:
    """(c), twice in a row: the provider times out before accepting on the first two attempts, then accepts: within
    max_retries=3, SUCCESS with one e-mail, after 3 requests (a policy with fewer retries gives up first)."""
    provider = helpers.email(stack)
    provider.reset()
    provider.fault(mode="slow_reject", times=2, delay=0.6)
    threads = running(stack)
    result = stack.app.send_task("ex.welcome", (4, f"welcome-4-{uuid.uuid4().hex[:8]}"))
    try:
        result.get(timeout=helpers.WELCOME_WAIT, propagate=False)
    except ResultTimeout:
        pass  # not ended in time: its state says so
    left = left_for_later(stack, threads)
    stats = provider.stats()
    return (run.expect("l01.check.state.late_twice", "SUCCESS", result.state)
            & run.expect("l01.check.deliveries.late_twice", 1, stats["deliveries"])
            & run.expect("l01.check.attempts.late_twice", 3, stats["requests"])
            & run.expect("l01.check.left_for_later.late_twice", [], left))


#: The waits the given policy puts between attempts (retry_backoff=1, no jitter): 1, 2, 4 s. The provider sees each
#: gap as the wait plus the client's 0.3 s timeout, so a gap shorter than the wait is another policy.
GIVEN_WAITS = (1, 2, 4)


def never_accepted_fails(run: CheckRun, stack) -> bool:
    """(e): a provider that times out before accepting on every attempt: FAILURE, no e-mail, and the policy's
    attempts as the provider saw them: 1 + 3 retries, each gap at least the given wait (1, 2, 4 s)."""
    provider = helpers.email(stack)
    provider.reset()
    provider.fault(mode="slow_reject", times=100, delay=0.6)
    with RequestTimes(provider) as seen:
        threads = running(stack)
        result = stack.app.send_task("ex.welcome", (6, f"welcome-6-{uuid.uuid4().hex[:8]}"))
        try:  # the given policy ends it in about 8 s (1 + 2 + 4 s of backoff, four 0.3 s timeouts)
            result.get(timeout=helpers.WELCOME_WAIT, propagate=False)
        except ResultTimeout:
            pass  # not ended in time: its state says so
        left = left_for_later(stack, threads)  # a handler run once it failed (on_failure) has sent what it sends
    stats = provider.stats()
    gaps = seen.gaps()
    spaced = len(gaps) == len(GIVEN_WAITS) and all(gap >= wait for gap, wait in zip(gaps, GIVEN_WAITS))
    return (run.expect("l01.check.state.never_accepted", "FAILURE", result.state)
            & run.expect("l01.check.deliveries.never_accepted", 0, stats["deliveries"])
            & run.expect("l01.check.attempts.never_accepted", 1 + GIVEN_POLICY[1], stats["requests"])
            & run.expect("l01.check.waits.never_accepted", list(GIVEN_WAITS), list(GIVEN_WAITS) if spaced
                                                                          else [round(gap, 2) for gap in gaps])
            & run.expect("l01.check.left_for_later.never_accepted", [], left))


#: (f)'s faults the provider meets every request with, and what the call then raises: a 503 (unavailable), and the
#: connection reset without an answer (nothing sent).
OTHER_ERRORS = (("unavailable", "ProviderUnavailable"), ("reset", "ConnectionResetError"))


def unavailable_fails_at_once(run: CheckRun, stack) -> bool:
    """(f) each of OTHER_ERRORS, in turn: FAILURE after one request each."""
    return all(fails_at_once(run, stack, mode, error) for mode, error in OTHER_ERRORS)


def fails_at_once(run: CheckRun, stack, mode: str, error: str) -> bool:
    """(f) a provider answering every request with `mode` (a 503, or a connection reset without an answer: nothing
    sent): no timeout, so not retried: FAILURE after exactly one request (a retry of any kind, self.retry or a loop in
    the task, sends more)."""
    provider = helpers.email(stack)
    provider.reset()
    provider.fault(mode=mode, times=100)
    threads = running(stack)
    result = stack.app.send_task("ex.welcome", (8, f"welcome-8-{uuid.uuid4().hex[:8]}"))
    try:
        result.get(timeout=helpers.WELCOME_WAIT, propagate=False)
    except ResultTimeout:
        pass  # not ended in time: its state says so
    left = left_for_later(stack, threads)
    return (run.expect("l01.check.other_error_state", "FAILURE", result.state, error=error)
            & run.expect("l01.check.other_error_attempts", 1, provider.stats()["requests"], error=error)
            & run.expect("l01.check.other_error_left", [], left, error=error))


WELCOME_UNREACHABLE_QUEUE = "l01-welcome-unreachable"  # consumed only by the worker that finds no provider listening


def refused_fails_at_once(run: CheckRun, stack, attempts: connects.Counter) -> bool:
    """(f), hidden: the provider unreachable (nothing listens where it was: the connection is refused, the client
    raises ConnectionError): no timeout, so not retried: FAILURE after exactly one connection attempt. Run by a
    worker of its own, whose provider address has no process behind it (each attempt to reach it is reported to the
    check's own process: connects.py)."""
    provider = f"127.0.0.1:{closed_port()}"
    stack.add_worker(WorkerSpec(queues=(WELCOME_UNREACHABLE_QUEUE,),
                                env={EMAIL_URL_ENV: f"http://{provider}", **attempts.env(provider)}))
    attempts.take(0)
    result = stack.app.send_task("ex.welcome", (9, f"welcome-9-{uuid.uuid4().hex[:8]}"),
                                 queue=WELCOME_UNREACHABLE_QUEUE)
    try:
        result.get(timeout=helpers.WELCOME_WAIT, propagate=False)
    except ResultTimeout:
        pass  # not ended in time: its state says so
    left = left_for_later(stack)
    return (run.expect("l01.check.other_error_state", "FAILURE", result.state, hidden=True, error="ConnectionError")
            & run.expect("l01.check.other_error_attempts", 1, attempts.take(), hidden=True, error="ConnectionError")
            & run.expect("l01.check.other_error_left", [], left, hidden=True, error="ConnectionError"))


#: Pairs of ids of two events of one user whose digests share their first or last 8 hex digits (32 bits): a key cut
#: from a digest (the first or last 8 hex digits of sha256(event_id), md5's or sha1's, a crc32) is the same for both,
#: and the provider drops the second e-mail. Found once by a birthday search: hash f"user-7:welcome-after-signup:{n}"
#: for n = 0, 1, 2, ... keeping each cut digest in a dict until one comes again (the first pair found, per cut).
DIGEST_PAIRS = (
    ((7, "user-7:welcome-after-signup:13278"), (7, "user-7:welcome-after-signup:63469")),  # sha256: 5d0f364a…
    ((7, "user-7:welcome-after-signup:32070"), (7, "user-7:welcome-after-signup:60535")),  # sha256: …6548275d
    ((7, "user-7:welcome-after-signup:92350"), (7, "user-7:welcome-after-signup:176500")),  # md5: 3e047d1d…
    ((7, "user-7:welcome-after-signup:6442"), (7, "user-7:welcome-after-signup:50033")),  # md5: …35d2997f
    ((7, "user-7:welcome-after-signup:26117"), (7, "user-7:welcome-after-signup:80721")),  # sha1: 764c009e…
    ((7, "user-7:welcome-after-signup:5014"), (7, "user-7:welcome-after-signup:19889")),  # sha1: …e1ed1534
    ((7, "user-7:welcome-after-signup:501855"), (7, "user-7:welcome-after-signup:4000600")),  # crc32: f6669ef7
)


#: How long the check waits for the key probe beyond the probe's own bound on its calls (keys_apart.SECONDS): its
#: start (Python, Celery, the answer's imports) on a loaded machine, and the call under way when the bound passed.
PROBE_SLACK = 60.0


def keys_tell_apart(run: CheckRun, stack) -> bool:
    """(d), hidden: ex.welcome's body, run for confusable events (keys_apart.CONFUSABLE) and up to keys_apart.COUNT
    distinct event ids of user 7 (some differing only in case) in a process of the check's own that imports the
    answer with the e-mail client replaced by a recorder and a throwaway database of its own (keys_apart.py): every
    key holds its event's id whole or looks like a whole hex digest (keys_apart.whole_digest, keys_apart.Spread: the
    first one that does not fails), and the
    first two events that share an Idempotency-Key, sent to the worker, each deliver their own e-mail. Where the probe
    finds no such pair (or does not end in time: a call of the answer that never returns), two new ids that differ
    only in case, which the probe never ran, are sent instead. The probe's bound on time is the check's own: a probe
    that ran out of it tells what it found in the ids it ran, never a failure of the learner's code."""
    try:
        done = subprocess.run([sys.executable, "-m", keys_apart.__name__, run.module, str(keys_apart.COUNT), "7"],
                              capture_output=True, text=True, timeout=keys_apart.SECONDS + PROBE_SLACK,
                              cwd=run.workdir, env=stack.process_env())
    except subprocess.TimeoutExpired:
        out: dict = {}
    else:
        if done.returncode != 0:
            raise RuntimeError(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "key probe failed")
        out = json.loads(done.stdout.strip().splitlines()[-1])
    if "odd_key" in out:
        user, event, key = out["odd_key"]
        return run.expect("l01.check.key_holds_event_id", event, key, passed=False, hidden=True, event=repr(event))
    fresh = f"signup-{uuid.uuid4().hex[:8]}-a"
    first, second = out.get("pair") or ((7, fresh), (7, fresh.upper()))
    return second_event_delivers(run, stack, (tuple(first), tuple(second)))


def second_event_delivers(run: CheckRun, stack, pair) -> bool:
    """(d), hidden: two events ((user, event id) each) whose keys may be one (DIGEST_PAIRS, the key probe's pair):
    each delivers its own e-mail."""
    provider = helpers.email(stack)
    provider.reset()
    for user, event in pair:
        stack.app.send_task("ex.welcome", (user, event)).get(timeout=30, propagate=False)
    return run.expect("l01.check.deliveries.second_event", 2, provider.stats()["deliveries"], hidden=True)


class RequestTimes:
    """When each request reached the fake provider, as the check sees it: a thread reads the provider's request
    count every POLL seconds; a request counted by one reading came after the reading before it started and before
    this one ended (a window, however slow a reading is under load)."""

    POLL = 0.05

    def __init__(self, provider):
        self.provider = provider
        self.windows: list[tuple[float, float]] = []
        self.stopping, self.ready = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._watch, name="l01-request-times", daemon=True)

    def __enter__(self) -> RequestTimes:
        self.thread.start()
        self.ready.wait(5)  # the count before the task starts is read: its first request is seen when it comes
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join(5)

    def gaps(self) -> list[float]:
        """The longest each gap between consecutive requests can have been (a slow reading never shortens it)."""
        return [later[1] - earlier[0] for earlier, later in zip(self.windows, self.windows[1:])]

    def _watch(self) -> None:
        seen, previous = 0, time.monotonic()
        while not self.stopping.is_set():
            started = time.monotonic()
            try:
                count = self.provider.stats()["requests"]
            except (OSError, ValueError, KeyError):
                count = seen
            self.windows.extend([(previous, time.monotonic())] * max(0, count - seen))
            seen, previous = max(seen, count), started
            self.ready.set()
            self.stopping.wait(self.POLL)


class RetriedMessages:
    """What the broker received for each ex.notify task, seen from the check's own connection to it (Redis MONITOR,
    `stack.broker_commands`), not from anything the worker writes: each Celery retry publishes the task again,
    `retries` one higher, so the retries of a task are the distinct `retries` above 0 its published messages carried."""

    def __init__(self, stack):
        self.namespace = stack.namespace
        self.pushed: list[str] = []
        self.commands = BrokerCommands(stack.broker.url, self._seen)

    def __enter__(self) -> RetriedMessages:
        self.commands.__enter__()
        return self

    def __exit__(self, *exc) -> None:
        self.commands.__exit__(*exc)

    def _seen(self, command: str, at: float) -> None:
        if command.startswith(("LPUSH ", "RPUSH ")) and self.namespace in command:
            self.pushed.append(command)

    def retries(self, task_id: str) -> int:
        """How many times the task was published again by a retry (the task has ended)."""
        self.commands.caught_up()
        found = set()
        for command in list(self.pushed):
            if f'"id": "{task_id}"' in command and '"task": "ex.notify"' in command:
                found.update(int(n) for n in re.findall(r'"retries": (\d+)', command)[:1])
        return len({n for n in found if n > 0})


def notify(stack, provider, to, fault: dict | None, queue: str | None = None) -> tuple[str, int, str]:
    provider.reset()
    if fault:
        provider.fault(**fault)
    result = stack.app.send_task("ex.notify", (to,), queue=queue)
    result.get(timeout=30, propagate=False)
    return result.state, provider.stats()["requests"], result.id


def down(times: int) -> dict:
    return {"mode": "unavailable", "times": times}


def timing_out(times: int) -> dict:
    return {"mode": "slow_reject", "times": times, "delay": 0.6}


@exercise("l01.narrow_autoretry")
def narrow_autoretry(run: CheckRun) -> None:
    """(a) refused: FAILURE, 1 request; (b) one timeout: SUCCESS, 2, one Celery retry; (c) down twice: SUCCESS, 3;
    down three times, one past max_retries=2: FAILURE, 3; (e) replies the client cannot read (an HTML page): FAILURE,
    1 request, no retry; (g) `to` as bytes, which the client cannot encode (TypeError, a bug of the caller): FAILURE,
    no request, no retry; (f) the provider unreachable (connection refused): FAILURE after 2 retries and 3
    connection attempts; (g) bugs of the worker's setup (its e-mail footer file missing, a folder, not UTF-8, under a
    file: FileNotFoundError, IsADirectoryError, UnicodeDecodeError, NotADirectoryError); hidden: down once, two
    timeouts, the footer unreadable (PermissionError) and a link to itself (OSError). Retries counted from
    the broker: the messages each retry publishes again. The first failed case ends the check."""
    # (to, fault, requests, final state, kind, times, hidden)
    cases = [("not-an-address", None, 1, "FAILURE", "permanent", 0, False),
             ("user1@example.com", timing_out(1), 2, "SUCCESS", "transient", 1, False),
             ("user2@example.com", down(2), 3, "SUCCESS", "unavailable", 2, False),
             ("user2@example.com", down(3), 3, "FAILURE", "unavailable", 3, False),
             ("user3@example.com", {"mode": "garbled", "times": 3}, 1, "FAILURE", "garbled", 0, False),
             (b"user5@example.com", None, 0, "FAILURE", "bug", 0, False)]  # (g) bytes: the client cannot encode
    if run.graded(6):
        cases += [("user2@example.com", down(1), 2, "SUCCESS", "unavailable", 1, True),
                  ("user1@example.com", timing_out(2), 3, "SUCCESS", "transient", 2, True)]
    with started(run) as stack, RetriedMessages(stack) as retried:
        provider = helpers.email(stack)
        for to, fault, attempts, final, kind, times, hidden in cases:
            state, requests, task_id = notify(stack, provider, to, fault)
            values = ({"times": times} if kind in ("unavailable", "transient")
                      else {"error": "TypeError"} if kind == "bug" else {})
            retries = max(0, attempts - 1) if kind in ("unavailable", "transient") else 0
            if not (run.expect(f"l01.check.{kind}_attempts", attempts, requests, hidden=hidden, **values)
                    & run.expect(f"l01.check.{kind}_state", final, state, hidden=hidden, **values)):
                return
            key = "l01.check.celery_retries" if kind == "unavailable" else f"l01.check.{kind}_retries"
            if not run.expect(key, retries, retried.retries(task_id), hidden=hidden, **values):
                return
        with closing(connects.Counter()) as attempts:
            if unreachable(run, stack, retried, attempts):
                broken_setup(run, stack, retried)


UNREACHABLE_QUEUE = "l01-unreachable"  # consumed only by the worker that finds no provider listening


def closed_port() -> int:
    """A local port nothing listens on: a connection to it is refused."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def unreachable(run: CheckRun, stack, retried: RetriedMessages, attempts: connects.Counter) -> bool:
    """(f) the provider unreachable on every attempt (nothing listens where it was: the connection is refused, the
    client raises ConnectionError): an outage, transient like the 503, retried twice (max_retries=2), then FAILURE,
    after 3 connection attempts, one per Celery attempt (no loop inside the task). Run by a worker of its own, whose
    provider address has no process behind it (each attempt to reach it is reported to the check's own process:
    connects.py), and whose e-mail footer file is the stack's FOOTER (broken_setup breaks it)."""
    footer = footer_path(stack)
    footer.parent.mkdir(parents=True, exist_ok=True)
    footer.write_text("-- celerylab\n", encoding="utf-8")
    provider = f"127.0.0.1:{closed_port()}"
    stack.add_worker(WorkerSpec(queues=(UNREACHABLE_QUEUE,),
                                env={EMAIL_URL_ENV: f"http://{provider}", EMAIL_FOOTER_ENV: str(footer),
                                     **attempts.env(provider)}))
    attempts.take(0)
    result = stack.app.send_task("ex.notify", ("user4@example.com",), queue=UNREACHABLE_QUEUE)
    result.get(timeout=30, propagate=False)
    return (run.expect("l01.check.unreachable_state", "FAILURE", result.state)
            & run.expect("l01.check.unreachable_retries", 2, retried.retries(result.id))
            & run.expect("l01.check.unreachable_attempts", 3, attempts.take()))


def footer_path(stack) -> Path:
    return Path(stack.workdir) / "l01-footer" / "footer.txt"


def broken_setup(run: CheckRun, stack, retried: RetriedMessages) -> None:
    """(g): bugs of the worker's setup, not of the provider: the e-mail footer file the client reads before sending
    is missing, a folder, not UTF-8, or its path runs under a file (NotADirectoryError); hidden: unreadable
    (PermissionError) and a link to itself (a plain OSError, ELOOP): no list of the exceptions named ends in all of
    them. Each raises its own exception (none of them TypeError or ConnectionError), and waiting changes none of them:
    FAILURE, no retry. The first three have criteria of their own; the others one pair, naming what was raised."""
    footer = footer_path(stack)
    provider = helpers.email(stack)
    for error, breaks, hidden in footer_breakages(run, footer):
        breaks()
        raised = open_error(footer)
        if raised is None:  # this machine cannot break it that way (a reader no permission stops): not a bug here
            continue
        state, _, task_id = notify(stack, provider, "user6@example.com", None, queue=UNREACHABLE_QUEUE)
        key = f"l01.check.footer_{error}" if error in NAMED_BREAKAGES else "l01.check.footer_broken"
        values = {} if error in NAMED_BREAKAGES else {"error": raised}
        if not (run.expect(f"{key}_state", "FAILURE", state, hidden=hidden, **values)
                & run.expect(f"{key}_retries", 0, retried.retries(task_id), hidden=hidden, **values)):
            return


NAMED_BREAKAGES = ("missing", "folder", "undecodable")  # the first three, each with criteria of its own


def footer_breakages(run: CheckRun, footer: Path) -> list[tuple[str, object, bool]]:
    """Each way (g) breaks the footer, in order (each from the state the one before left): (name, break it, hidden)."""
    folder = footer.parent

    def under_a_file() -> None:  # the footer's folder is a file: its path runs under a file
        footer.unlink()
        folder.rmdir()
        folder.write_text("not a folder\n", encoding="utf-8")

    def unreadable() -> None:  # a file this user may not read (a root process may read any file but a write-only
        folder.unlink()        # kernel setting: the footer then links to one)
        folder.mkdir()
        if os.geteuid() == 0 and WRITE_ONLY.exists():
            footer.symlink_to(WRITE_ONLY)
        else:
            footer.write_text("-- celerylab\n", encoding="utf-8")
            footer.chmod(0)

    def self_link() -> None:  # a link to itself: open() raises a plain OSError (ELOOP), no subclass of it
        footer.unlink()
        footer.symlink_to(footer.name)

    ways = [("missing", footer.unlink, False), ("folder", footer.mkdir, False),
            ("undecodable", lambda: (footer.rmdir(), footer.write_bytes(b"\xff\xfe-- \x80\n")), False),
            ("under_file", under_a_file, False)]
    if run.graded(2):
        ways += [("unreadable", unreadable, True), ("self_link", self_link, True)]
    return ways


#: A kernel setting anyone may write and no one may read, root included (mode 0200, which /proc/sys enforces).
WRITE_ONLY = Path("/proc/sys/vm/drop_caches")


def open_error(footer: Path) -> str | None:
    """The exception opening and reading the footer raises, as the client does (None: it reads)."""
    try:
        with open(footer, encoding="utf-8") as file:
            file.read()
    except (OSError, ValueError) as error:
        return type(error).__name__
    return None


SECOND_QUEUE = "l01-second"  # consumed only by the payment check's second worker


@exercise("l01.payment_upsert")
def payment_upsert(run: CheckRun) -> None:
    """Three runs of one message: SUCCESS each, one row; after a worker restart, run again with each later amount,
    larger, smaller and one the row held before (a correction undone), on two workers in turn (the first, a second
    one, the first again: what one process remembers is not the row): the latest one each time. The first failed
    criterion ends the check."""
    cases = [(42, "99.90", ("120.00", "45.00", "120.00"), False)]
    if run.graded(5):
        cases.append((43, "250.00", ("9.995", "1000.00", "9.995"), True))  # three decimals: kept as sent
    with started(run) as stack:
        connection = helpers.db(stack)
        try:
            for order_id, amount, laters, hidden in cases:
                states = helpers.publish_again(stack, "ex.record_payment", (order_id, amount), times=3)
                rows = appdb.scalar(connection, "SELECT COUNT(*) FROM invoices WHERE order_id = ?", (order_id,))
                if not (run.expect("l01.check.redelivered_states", ["SUCCESS"] * 3, states, hidden=hidden)
                        & run.expect("l01.check.invoice_rows", 1, rows, hidden=hidden, order=order_id)):
                    return
                stack.workers[0].restart()  # later: a deploy in between, nothing the worker kept in memory survives
                if len(stack.workers) < 2:
                    stack.add_worker(WorkerSpec(queues=(SECOND_QUEUE,)))  # another worker process of the deploy
                for later, queue in zip(laters, (None, SECOND_QUEUE, None)):
                    stack.app.send_task("ex.record_payment", (order_id, later), queue=queue).get(
                        timeout=10, propagate=False)
                    stored = appdb.scalar(connection, "SELECT amount FROM invoices WHERE order_id = ?", (order_id,))
                    if not run.expect("l01.check.latest_amount", later, stored, hidden=hidden, order=order_id,
                                      amount=later):
                        return
                if not copies_at_once(run, stack, connection, order_id + AT_ONCE_ORDER, laters[0], hidden):
                    return
        finally:
            connection.close()


AT_ONCE_ORDER = 500  # added to the order id: a new order, whose first payment two workers process at once
#: How long the check holds the table against writes while both copies run: both read it before either writes.
HOLD_SECONDS = 1.5


def copies_at_once(run: CheckRun, stack, connection, order_id: int, amount: str, hidden: bool) -> bool:
    """Two copies of one new payment's message (sent twice: each its own task id, so each reports its own state),
    processed at the same time by two worker processes: SUCCESS both, one row with the amount. The check holds the table against writes (its own transaction: reads go on) while both
    copies start, so both read the table before either writes, as two copies running at once can."""
    with appdb.transaction(connection):
        if not isinstance(connection, sqlite3.Connection):  # SQLite: BEGIN IMMEDIATE already holds writes
            appdb.execute(connection, "LOCK TABLE invoices IN SHARE MODE")
        results = [stack.app.send_task("ex.record_payment", (order_id, amount), queue=queue)
                   for queue in (None, SECOND_QUEUE)]
        time.sleep(HOLD_SECONDS)
    states = [helpers.finished(result, 15) for result in results]
    rows = appdb.scalar(connection, "SELECT COUNT(*) FROM invoices WHERE order_id = ?", (order_id,))
    stored = appdb.scalar(connection, "SELECT amount FROM invoices WHERE order_id = ?", (order_id,))
    return (run.expect("l01.check.at_once_states", ["SUCCESS"] * 2, states, hidden=hidden)
            & run.expect("l01.check.invoice_rows", 1, rows, hidden=hidden, order=order_id)
            & run.expect("l01.check.latest_amount", amount, stored, hidden=hidden, order=order_id, amount=amount))


def months_pass(stack) -> None:
    """What months do to the stack: the application's database ages (age_database: what it holds was written months
    ago), and its own Redis (the broker and result backend), no store of record, has restarted, failed over or
    evicted: every key of every database of that server is gone (FLUSHALL) but the broker's routing table (kombu's
    bindings, which each worker declares again as it starts).

    Redis only on a server the stack started (never on a server given by URL, which others may share)."""
    age_database(stack, MONTHS_LATER)
    if stack.broker is None or stack.broker.process is None:
        return
    broker = redis.Redis.from_url(stack.broker.url)
    try:
        own = broker.connection_pool.connection_kwargs.get("db", 0)
        for number in range(redis_databases(broker)):
            client = broker if number == own else redis.Redis.from_url(
                urlsplit(stack.broker.url)._replace(path=f"/{number}").geturl())
            try:
                if client is broker:
                    for key in client.scan_iter(count=500):
                        if b"_kombu.binding" not in key:
                            client.delete(key)
                else:
                    client.flushdb()
            finally:
                if client is not broker:
                    client.close()
    finally:
        broker.close()


def redis_databases(client) -> int:
    """How many databases the Redis server has (its `databases` setting; 16, Redis's default, where it does not
    tell)."""
    try:
        return int(client.config_get("databases").get("databases", 16))
    except (redis.RedisError, ValueError):
        return 16


def age_database(stack, days: float) -> None:
    """Every date and time the application's database holds, in each column declared a date or a timestamp of each
    of its tables, moved `days` into the past, as if written then: an expiry set by the database's own clock
    (PostgreSQL's now(), SQLite's 'now': the deploy moves only the worker's Python clock) has passed as it would
    have. Values of other columns (a number of seconds, a text) stay: the worker's moved clock ages those."""
    if getattr(stack, "database", None) is None:
        return
    connection = stack.db()
    try:
        with appdb.transaction(connection):
            if isinstance(connection, sqlite3.Connection):
                age_sqlite(connection, days)
            else:
                age_postgres(connection, days)
    finally:
        connection.close()


def quoted(name: str) -> str:
    return '"' + name.replace('"', '""') + '"'


def age_postgres(connection, days: float) -> None:
    """age_database on PostgreSQL: the columns of type date, timestamp or timestamptz of the schema's tables."""
    columns = appdb.execute(connection, """
        SELECT c.table_name, c.column_name FROM information_schema.columns c
        JOIN information_schema.tables t ON t.table_schema = c.table_schema AND t.table_name = c.table_name
        WHERE c.table_schema = current_schema() AND t.table_type = 'BASE TABLE'
          AND c.data_type IN ('date', 'timestamp without time zone', 'timestamp with time zone')""").fetchall()
    for table, column in columns:
        appdb.execute(connection, f"UPDATE {quoted(table)} SET {quoted(column)} = {quoted(column)} "
                                  "- make_interval(secs => ?)", (days * 86400,))


#: A SQLite column declared with one of these words holds dates (SQLite keeps the declared type as written).
SQLITE_TIME_TYPES = re.compile(r"DATE|TIME", re.IGNORECASE)


def age_sqlite(connection, days: float) -> None:
    """age_database on SQLite: in each column declared a date or time (DATE, DATETIME, TIMESTAMP), a text SQLite
    reads as a date keeps its form (a date, seconds, fractions, the "T"); a number is read as SQLite's date
    functions and Python's code write them: milliseconds or seconds since 1970, or a Julian day."""
    seconds = round(days * 86400)
    shift = f"-{seconds} seconds"
    tables = [row[0] for row in appdb.execute(
        connection, "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").fetchall()]
    for table in tables:
        for _, column, declared, *_ in appdb.execute(connection, f"PRAGMA table_info({quoted(table)})").fetchall():
            if not SQLITE_TIME_TYPES.search(declared or ""):
                continue
            c = quoted(column)
            appdb.execute(connection, f"""UPDATE {quoted(table)} SET {c} = CASE
                WHEN typeof({c}) = 'text' AND {c} GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]*'
                     AND julianday({c}) IS NOT NULL THEN
                    CASE WHEN length({c}) = 10 THEN date({c}, :shift)
                         WHEN substr({c}, 11, 1) = 'T' THEN replace(strftime(CASE WHEN instr({c}, '.') THEN
                              '%Y-%m-%d %H:%M:%f' ELSE '%Y-%m-%d %H:%M:%S' END, {c}, :shift), ' ', 'T')
                         ELSE strftime(CASE WHEN instr({c}, '.') THEN '%Y-%m-%d %H:%M:%f' ELSE '%Y-%m-%d %H:%M:%S'
                              END, {c}, :shift) END
                WHEN typeof({c}) IN ('integer', 'real') AND {c} > 1e11 THEN {c} - :seconds * 1000
                WHEN typeof({c}) IN ('integer', 'real') AND {c} > 1e8 THEN {c} - :seconds
                WHEN typeof({c}) IN ('integer', 'real') AND {c} BETWEEN 1e6 AND 1e7 THEN {c} - :days
                ELSE {c} END""", {"shift": shift, "seconds": seconds, "days": days})


def charges(connection, order_id: int, invoice_no: str) -> int:
    return appdb.scalar(connection, "SELECT COUNT(*) FROM invoice_charges WHERE order_id = ? AND invoice_no = ?",
                        (order_id, invoice_no))


OTHER_ORDER = 1000  # added to the order id: another order, whose invoices are numbered on their own
#: The amount the first invoice is first charged, as sent (a decimal string): after the reconciliation the charge
#: still holds it as sent, not a number made of it (99.9, 9990).
FIRST_AMOUNT = "99.90"


@dataclasses.dataclass(frozen=True)
class ChargeCase:
    """One order's invoices as charge_once sends them (see charges_each_invoice_once)."""

    order_id: int
    first: str  # its first invoice's number
    others: tuple[tuple[str, str], ...]  # its other invoices: (number, amount)
    other_order_amount: str  # the amount of another order's invoice of the first one's number
    joined: tuple[int, str, str]  # another order's invoice reading as the first's written after its order: + amount
    reconciled: str  # the amount the reconciliation carries for the first invoice
    hidden: bool


@exercise("l01.charge_once")
def charge_once(run: CheckRun) -> None:
    """(a) one message x3; (b) a second invoice, another order's invoice of the same number, and one whose order and
    invoice numbers read as the first's written together, each holding its amount as sent (no, one or three
    decimals); (c) cleanup and a deploy on another machine (months later: the database's dates and times moved back,
    every database of the broker's Redis emptied), then a new task for the first invoice: still one charge, its
    amount as first sent ("99.90"); hidden: order 31, whose other invoices' numbers share their digits (INV-7, CN-7),
    other amounts, a corrected amount. The first failed criterion ends the check."""
    cases = [ChargeCase(7, "12", ((f"INV-{uuid.uuid4().hex[:6]}", "12.5"),), "7", (71, "2", "10.125"), "99.9",
                        False)]
    if run.graded(13):
        cases.append(ChargeCase(31, "2", (("INV-7", "1250"), ("CN-7", "0.5")), "89.999", (3, "12", "40.10"),
                                "89.90", True))
    with started(run) as stack:
        connection = helpers.db(stack)
        try:
            for case in cases:
                if not charges_each_invoice_once(run, stack, connection, case):
                    return
        finally:
            connection.close()


def charged_once(run: CheckRun, stack, connection, order_id: int, invoice_no: str, amount: str, key: str,
                 hidden: bool, **values) -> bool:
    """A new invoice's charge sent once: 1 charge (criterion `key`), holding the amount as sent."""
    stack.app.send_task("ex.charge", (order_id, invoice_no, amount)).get(timeout=10, propagate=False)
    if not run.expect(key, 1, charges(connection, order_id, invoice_no), hidden=hidden, **values):
        return False
    return run.expect("l01.check.charge_amount_as_sent", amount, charged_amount(connection, order_id, invoice_no),
                      hidden=hidden, order=order_id, invoice=invoice_no, amount=amount)


def charged_amount(connection, order_id: int, invoice_no: str):
    return appdb.scalar(connection, "SELECT amount FROM invoice_charges WHERE order_id = ? AND invoice_no = ?",
                        (order_id, invoice_no))


def charges_each_invoice_once(run: CheckRun, stack, connection, case: ChargeCase) -> bool:
    """(a) one message x3; (b) the order's other invoices (at grading, two whose numbers share their digits), the
    first invoice's number on another order (invoices are numbered per order: its own charge), and another order's
    invoice whose order and invoice numbers, written one after the other, read as the first invoice's (`joined`:
    order 71's invoice 2 and order 7's invoice 12), each charge holding its amount as sent; (c) months later
    (cleanup, a deploy elsewhere), the first invoice again as a new task, its amount written another way
    (`reconciled`; at grading, a corrected amount)."""
    order_id, first, hidden = case.order_id, case.first, case.hidden
    states = helpers.publish_again(stack, "ex.charge", (order_id, first, FIRST_AMOUNT), times=3)
    if not (run.expect("l01.check.charge_states", ["SUCCESS"] * 3, states, hidden=hidden)
            & run.expect("l01.check.charge_rows_same_message", 1, charges(connection, order_id, first),
                         hidden=hidden)):
        return False
    for invoice_no, amount in case.others:
        if not charged_once(run, stack, connection, order_id, invoice_no, amount,
                            "l01.check.charge_rows_second_invoice", hidden, invoice=invoice_no):
            return False
    if not charged_once(run, stack, connection, order_id + OTHER_ORDER, first, case.other_order_amount,
                        "l01.check.charge_rows_other_order", hidden):
        return False
    joined_order, joined_invoice, joined_amount = case.joined
    if not charged_once(run, stack, connection, joined_order, joined_invoice, joined_amount,
                        "l01.check.charge_rows_joined", hidden, order=joined_order, invoice=joined_invoice,
                        first_order=order_id, first=first):
        return False
    appdb.execute(connection, "DELETE FROM processed_events")
    months_pass(stack)  # months later: the database's dates are months old, the broker's Redis has lost what it held
    redeployed(stack)  # months later: a deploy on another machine, nothing the worker kept in memory or on disk
    again = stack.app.send_task("ex.charge", (order_id, first, case.reconciled))
    again.get(timeout=10, propagate=False)
    return (run.expect("l01.check.charge_reconciliation_state", "SUCCESS", again.state, hidden=hidden)
            & run.expect("l01.check.charge_rows_reconciliation", 1, charges(connection, order_id, first),
                         hidden=hidden)
            & run.expect("l01.check.charge_amount_reconciliation", FIRST_AMOUNT,
                         charged_amount(connection, order_id, first), hidden=hidden))
