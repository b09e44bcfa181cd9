"""Lesson 02's exercise checks: each runs the learner's module on prefork workers and kills real processes."""
from __future__ import annotations

import math
import os
import shutil
import sqlite3
import tempfile
import threading
import time
import uuid
from datetime import datetime, timezone
from pathlib import Path

from celerylab import appdb, localized
from celerylab.checks import CheckRun, exercise
from celerylab.i18n import t
from celerylab.lessons.l02_workers import helpers, runs, sweep_bound
from celerylab.lessons.l02_workers.final_path import FinalPaths
from celerylab.stack.broker_commands import BrokerCommands

BALANCE = {False: 50, True: 75}  # the coupon's balance before the payment: the worker case, the child case
CLOSED_ORDER = 3
REFUSED_EVENT_ORDER = 2
# The refused payments run on SQLite, whatever database the stack has: a refused statement fails and the transaction
# stays open (RAISE(ABORT), SQLite's default for a constraint), so an answer that swallows the error and commits keeps
# the debit. PostgreSQL would abort the whole transaction by itself and hide that answer.
REFUSALS = [
    f"CREATE TRIGGER order_closed BEFORE UPDATE ON orders WHEN OLD.id = {CLOSED_ORDER} "
    f"BEGIN SELECT RAISE(ABORT, 'order {CLOSED_ORDER} is closed'); END",
    # the event's own row is refused: a payment whose writes live or die together leaves nothing
    f"CREATE TRIGGER event_refused BEFORE INSERT ON events WHEN NEW.order_id = {REFUSED_EVENT_ORDER} "
    f"BEGIN SELECT RAISE(ABORT, 'events of order {REFUSED_EVENT_ORDER} are refused'); END",
]
REFUSALS_QUEUE, REFUSALS_DB = "refusals", "refusals.db"


#: One stack of a check starts at a time: a start binds the lesson's app to its broker and copies that app's settings
#: (stack/client.py), so two starts at once (helpers.in_parallel's scenarios) read one app's settings while the other
#: changes them ("dictionary changed size during iteration").
STARTING = threading.Lock()


def started(run: CheckRun, **options):
    """`run.stack(**options)`, started while no other scenario of this check starts one."""
    with STARTING:
        return run.stack(**options)


def applied(child: bool) -> tuple:
    """(status, balance, events) once the payment of order 1 happened exactly once."""
    return "confirmed", BALANCE[child] - 10, 1


def writer_waits(stack) -> bool:
    """Whether another connection's write has to wait right now: the payment's writes are in an open transaction."""
    connection = stack.db()
    try:
        if isinstance(connection, sqlite3.Connection):
            connection.execute("PRAGMA busy_timeout = 300")
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("ROLLBACK")
        else:
            connection.execute("SET lock_timeout = '300ms'")
            connection.execute("SELECT 1 FROM coupons WHERE order_id = 1 FOR UPDATE")
    except sqlite3.OperationalError:  # "database is locked": a write transaction is open
        return True
    except Exception as error:  # PostgreSQL's LockNotAvailable
        return type(error).__name__ == "LockNotAvailable"
    finally:
        connection.close()
    return False


def run_sql(stack, statements: list[str], params: tuple = ()) -> None:
    connection = stack.db()
    try:
        for statement in statements:
            appdb.execute(connection, statement, params)
        connection.commit()
    finally:
        connection.close()


def paid_after_kill(run: CheckRun, child: bool) -> dict:
    """Pay order 1, SIGKILL the worker (or only its pool child) at the hold; then the same payment again after a
    deploy restarted the worker; with the child, also two payments the database refuses, on a worker of their own."""
    vt = 30 if child else 4  # with the child killed, only the worker itself may bring the message back
    workers = [helpers.worker("celery")]
    if child:  # the refused payments' worker: the same module, on a SQLite database of its own (REFUSALS)
        workers.append(helpers.worker(REFUSALS_QUEUE, env={appdb.DATABASE_URL_ENV: f"sqlite:///{{workdir}}/{REFUSALS_DB}"}))
    with started(run, workers=workers, database=helpers.SHOP, timeline=False,
                   settings={"broker_transport_options": helpers.lab_transport(visibility_timeout=vt)}) as stack:
        run_sql(stack, ["UPDATE coupons SET balance = ? WHERE order_id = 1"], (BALANCE[child],))
        refusals = send_refused(stack) if child else None
        stack.app.send_task("ex.pay", (1, "evt-1"))
        runs.wait(stack, "evt-1", "hold", timeout=10)
        # only the worker case asks whether writes wait: in the child case the probe's 0.3 s lock timeout would eat
        # into the 1 s pause, and under load the kill then lands after the payment committed (proving nothing)
        held = None if child else writer_waits(stack)
        at_kill = None
        if child:
            stack.workers[0].kill_child()
        else:
            stack.workers[0].kill()
            # read from the check's own connection before any redelivery (the new worker's sweep gives the message
            # back only after the 4 s visibility timeout): a payment whose writes die together left none of them
            at_kill = helpers.shop(stack, 1)
            stack.workers[0].restart()
        helpers.wait_for(lambda: helpers.shop(stack, 1)[0] == "confirmed", 12)
        runs.wait(stack, "evt-1", "hold", count=99, timeout=1)  # one more second: a second debit?
        after = helpers.shop(stack, 1)
        stack.workers[0].restart()  # later, after a deploy: nothing a worker process kept in memory survives
        again = stack.app.send_task("ex.pay", (1, "evt-1"))
        again.get(timeout=10, propagate=False)
        outcome = {"held": held, "at_kill": at_kill, "after": after, "again": (again.state, helpers.shop(stack, 1))}
        if not child:  # another payment of the same order (another event): a payment of its own
            following = stack.app.send_task("ex.pay", (1, "evt-2"))
            following.get(timeout=10, propagate=False)
            outcome["next"] = (following.state, helpers.shop(stack, 1))
        if refusals is not None:
            outcome.update(refused_outcomes(stack, refusals))
        return outcome


REFUSED = {"refused": (CLOSED_ORDER, "evt-closed"), "event_refused": (REFUSED_EVENT_ORDER, "evt-refused")}


def refusals_db(stack) -> str:
    return f"sqlite:///{stack.workdir / REFUSALS_DB}"


def send_refused(stack) -> list:
    """The refused payments' database (the shop and the two refusals), then the two payments, to their own worker:
    one of an order the database refuses to confirm, one whose event row it refuses."""
    connection = appdb.connect(refusals_db(stack))
    try:
        for statement in [*helpers.SHOP, *REFUSALS]:
            appdb.execute(connection, statement)
    finally:
        connection.close()
    return [stack.app.send_task("ex.pay", args, queue=REFUSALS_QUEUE) for args in REFUSED.values()]


def refused_outcomes(stack, sent: list) -> dict:
    """{case: (hold recorded, the order's row after)} for the refused payments, read from their SQLite database.
    An answer that writes the event after committing the debit and the confirmation leaves them without it; one
    that swallows the refusal and commits leaves the debit."""
    for result in sent:
        result.get(timeout=15, propagate=False)
    connection = appdb.connect(refusals_db(stack))
    try:
        return {name: (bool(runs.events(stack, event, "hold")), helpers.shop_in(connection, order))
                for name, (order, event) in REFUSED.items()}
    finally:
        connection.close()


@exercise("l02.pay_once")
def pay_once(run: CheckRun) -> None:
    outcome = helpers.in_parallel({"worker": lambda: paid_after_kill(run, child=False),
                                   "child": lambda: paid_after_kill(run, child=True)})
    worker, child = outcome["worker"][1], outcome["child"][1]
    run.expect("l02.check.worker_killed", applied(False), worker["after"])
    run.expect("l02.check.child_killed", applied(True), child["after"])
    run.expect("l02.check.same_event_again", ("SUCCESS", applied(False)), worker["again"])
    run.expect("l02.check.same_event_again_child", ("SUCCESS", applied(True)), child["again"])
    run.expect("l02.check.next_event", ("SUCCESS", ("confirmed", BALANCE[False] - 20, 2)), worker.get("next"))
    run.expect("l02.check.writes_held", True, worker["held"])
    run.expect("l02.check.nothing_at_kill", ("pending", BALANCE[False], 0), worker["at_kill"])
    run.expect("l02.check.confirmation_refused", (True, ("pending", 50, 0)), child["refused"])
    run.expect("l02.check.event_refused", (True, ("pending", 50, 0)), child["event_refused"])


class Deliveries:
    """Each time the broker hands one message to a worker, and when it leaves the broker's unacknowledged messages,
    seen from the check's own process: kombu's Redis transport files every delivery in its ``unacked`` hash (an HSET
    of the whole message under its delivery tag, task id included) and removes it there on the ack (an HDEL of the
    tag), which a MONITOR of the broker's connection shows with the server's time. Nothing the task or the worker's
    logging does hides it."""

    def __init__(self, stack, task_id: str) -> None:
        import threading

        self.url, self.key, self.task_id = stack.broker.url, f"{stack.namespace}unacked", task_id
        self.times: list[float] = []
        self.tags: list[str] = []  # the delivery tag of each delivery, in order
        self.left: dict[str, float] = {}  # when each tag left the unacknowledged messages (its ack)
        self.commands = BrokerCommands(self.url, self._seen)
        self.stop = threading.Event()
        self.poller = threading.Thread(target=self._poll, daemon=True)

    def __enter__(self) -> "Deliveries":
        self.commands.__enter__()
        if not self.commands.supported:  # a broker without MONITOR (the embedded fakeredis): look at the hash instead
            self.poller.start()
        return self

    def __exit__(self, *exc) -> None:
        self.commands.__exit__(*exc)
        self.stop.set()
        if self.poller.is_alive():
            self.poller.join(5)

    def unacknowledged(self, sent: float) -> float | None:
        """The longest the first delivery can have stayed unacknowledged: from `sent` (when the message was sent and
        its countdown started; a worker can receive it at once, it usually does a few hundredths of a second later)
        to its ack (None: not acknowledged while watched)."""
        if not self.tags or self.tags[0] not in self.left:
            return None
        return self.left[self.tags[0]] - min(sent, self.times[0])

    def _seen(self, text: str, at: float) -> None:
        """One command of the MONITOR: ``HSET <unacked> <tag> <message>`` (a delivery), ``HDEL <unacked> <tag>`` (its
        ack)."""
        name, key, tag, *rest = text.split(" ", 3) + ["", "", ""]
        if key != self.key:
            return
        if name.upper() == "HSET" and self.task_id in rest[0]:
            self.times.append(at)
            self.tags.append(tag)
        elif name.upper() == "HDEL" and tag in self.tags and tag not in self.left:
            self.left[tag] = at

    def _poll(self) -> None:
        """Each delivery files the message under its tag with the delivery's time in ``unacked_index``: the distinct
        times seen every 0.02 s (a copy acknowledged faster than that would be missed: MONITOR does not miss it), and
        when a tag seen there is gone."""
        import redis

        client = redis.Redis.from_url(self.url)
        seen: dict[str, float] = {}
        try:
            while not self.stop.wait(0.02):
                present = set()
                for tag, raw in client.hgetall(self.key).items():
                    if self.task_id.encode() in raw:
                        present.add(tag.decode())
                        score = client.zscore(f"{self.key}_index", tag)
                        if score is not None:
                            seen.setdefault(tag.decode(), float(score))
                for tag in seen.keys() - present - self.left.keys():
                    self.left[tag] = time.time()
                ordered = sorted(seen.items(), key=lambda item: item[1])
                self.tags, self.times = [tag for tag, _ in ordered], [at for _, at in ordered]
        finally:
            client.close()


def reminder_starts(run: CheckRun, seconds: float, watched: float) -> tuple[list[float], int, float | None, float | None]:
    """A reminder of `seconds` with countdown 3 s, a second worker joining 1.5 s after the send; its start times over
    `watched` seconds, how many times the broker delivered its message to a worker, how long its first delivery stayed
    unacknowledged (counted from the send, when its countdown starts and which the delivery follows by a few
    hundredths of a second, to the ack at the broker, after the run) and the visibility timeout the workers run
    with."""
    task_id = str(uuid.uuid4())
    with started(run, workers=[helpers.worker("celery")], timeline=False) as stack, Deliveries(stack, task_id) as seen:
        sent = time.time()
        stack.app.send_task("ex.remind", ("countdown", seconds), countdown=COUNTDOWN, task_id=task_id)
        time.sleep(max(0.0, sent + 1.5 - time.time()))  # the deploy happens at 1.5 s
        stack.add_worker(helpers.worker("celery"))
        starts = [entry["at"] - sent for entry in runs.watch(stack, "countdown", until=sent + watched)]
        held = seen.unacknowledged(sent)
        vt = transport_options(stack, stack.workers[0])[1].get("visibility_timeout", _kombu_default("visibility_timeout"))
        return starts, len(seen.times), held, float(vt)


def _kombu_default(name: str):
    from kombu.transport.redis import Channel

    return getattr(Channel, name)


def transport_options(stack, worker) -> tuple[dict, dict]:
    """(the worker's configuration, its broker_transport_options) as it reports them."""
    replies = stack.app.control.inspect(timeout=3, destination=[worker.hostname], limit=1).conf(with_defaults=True)
    conf = next(iter((replies or {}).values()), {})
    options = conf.get("broker_transport_options") or {}
    return conf, options if isinstance(options, dict) else {}


def killed_rerun(run: CheckRun) -> tuple[float | None, float | None]:
    """A 0.5 s task whose worker is SIGKILLed mid-run while another worker keeps running; seconds from the kill to
    its second start.

    The other worker's sweep gives the message back: the time measures the answer's visibility timeout, not how long
    a new worker takes to start (which a loaded machine stretches past any bound)."""
    import psutil

    with started(run, workers=[helpers.worker("celery"), helpers.worker("celery")], timeline=False) as stack:
        stack.app.send_task("ex.remind", ("killed", 0.5))
        [first] = runs.wait(stack, "killed", timeout=10)[:1] or [None]
        if first is None:
            return None, None
        child = first["pid"]  # the pool process that runs it: its parent is one of the two workers
        parent = psutil.Process(child).ppid() if psutil.pid_exists(child) else None
        worker = next((each for each in stack.workers if each.pid in (child, parent)), stack.workers[0])
        latest = latest_redelivery(stack, worker)
        killed = time.time()
        worker.kill()  # SIGKILL: the parent and, with it, the pool child
        starts = runs.wait(stack, "killed", count=2, timeout=killed + 8 - time.time())
        return (starts[1]["at"] - killed if len(starts) > 1 else None), latest


PICKUP = 0.5  # seconds the other worker takes, at least, to fetch and start a message the sweep gave back


def latest_redelivery(stack, worker) -> float:
    """The latest a killed task can come back, whatever the sweep's phase, from the options the other worker runs with
    as the installed kombu applies them (sweep_bound): the visibility timeout (or the unacked mutex's expiry, if the
    kill left it held and it is longer) plus the sweeps it takes (one period for every unacked_restore_limit messages
    among those the killed worker held: its prefetch) plus the other worker's pick-up; infinite when kombu never gives
    it back."""
    from kombu.transport.redis import Channel

    other = next((each for each in stack.workers if each is not worker), worker)
    conf, options = transport_options(stack, other)
    held = max(1, int(conf.get("worker_prefetch_multiplier") or 1)) * max(1, worker.spec.concurrency or 1)
    latest = sweep_bound.latest_back(options, held, Channel)
    return math.inf if latest is None else latest + PICKUP


COUNTDOWN = 3  # the reminder's countdown, in seconds
MARGIN = 0.25  # seconds the reminder's ack must come before its visibility timeout runs out (load, the result's store)


@exercise("l02.countdown_once")
def countdown_once(run: CheckRun) -> None:
    """A 1 s reminder (hidden: 2 s) runs once, its message delivered once (counted at the broker), acknowledged more
    than 0.25 s before its visibility timeout runs out (so no sweep phase could copy it; the time it stayed
    unacknowledged is measured from the send to its ack at the broker, and counts as at least countdown + run time,
    so a visibility timeout at or below countdown + run time + 0.25 s fails however fast the ack came, and one a few
    hundredths above fails by the worker's own delays), not before 2.9 s; a killed task is back within 8 s. The reminder of
    2 s is watched for 7 s: a copy the sweep makes before its ack at 5 s shows."""
    calls = {"countdown": lambda: reminder_starts(run, 1, 5), "kill": lambda: killed_rerun(run)}
    if run.graded(4):
        calls["longer"] = lambda: reminder_starts(run, 2, 7)
    outcome = helpers.in_parallel(calls)
    for case, hidden, seconds in (("countdown", False, 1), ("longer", True, 2)):
        if case not in outcome:
            continue
        starts, received, held, vt = outcome[case][1]
        run.expect("l02.check.countdown_runs", 1, len(starts), hidden=hidden)
        run.expect("l02.check.countdown_received", 1, received, hidden=hidden)
        # a sweep gives the message back once it has been unacknowledged longer than the visibility timeout: whatever
        # the sweep's phase, no copy can be made only if the reminder is acknowledged before that, with the margin.
        # `held` runs from the send (its countdown starts there; the delivery follows it by a few hundredths of a
        # second, so this is its longest possible value) to the ack at the broker (after the run, the result's store
        # and the ack's own trip); it counts as at least countdown + run time, an ack the answer's run is not over by
        acked = None if held is None else max(held, COUNTDOWN + seconds)
        run.expect("l02.check.countdown_no_copy_possible", True, acked is not None and acked + MARGIN < vt,
                   hidden=hidden, held="-" if acked is None else f"{localized.number(acked, digits=2)} s",
                   vt=f"{localized.number(vt)} s", margin=localized.number(MARGIN))
        run.expect("l02.check.countdown_not_early", True, bool(starts) and min(starts) >= 2.9, hidden=hidden,
                   starts=", ".join(helpers.seconds(at) for at in starts) or "-")
    back, latest = outcome["kill"][1]
    run.expect("l02.check.killed_back", True, back is not None and back <= 8,
               back="-" if back is None else helpers.seconds(back))
    run.expect("l02.check.killed_back_latest", True, latest is not None and latest <= 8,
               latest="-" if latest is None else t("l02.check.never_back") if math.isinf(latest)
               else helpers.seconds(latest))


# other exports' partial files in the same folder, under the names other code gives them: not the cut run's to remove
OTHER_EXPORTS = ("other.csv.part", "other.csv.tmp", "export-2.csv.tmp", "tmpk3j9x2a1", ".export.csv.swp")
PREVIOUS_EXPORT = "".join(f"row {i}\n" for i in range(5))  # a complete export already at the path: a cut re-export keeps it
SHORT_EXPORT = "".join(f"row {i}\n" for i in range(5) if i % 7 != 3)  # what the 5-row export writes (row 3 is bad)


@exercise("l02.export_cleanup")
def export_cleanup(run: CheckRun) -> None:
    """A 100-row export cut at the soft limit after running until it (0.9 s to 1.25 s), nothing of its own left in its
    folder under any name, in the worker's temporary folder nor anywhere else the worker wrote (other exports' partial
    files stay, under names a glob would match, and so does the complete export that was already at its path, whole),
    no `end`; a
    5-row export kept; the limits the worker registered for ex.export stay 1 s and 2 s; hidden: sent with a soft
    limit of 1.5 s, it runs until that one. The final paths are never opened for writing, truncated, deleted nor
    re-created: the cut run leaves its path alone and the 5-row export replaces the one already at its path in one step
    (a rename onto it), seen by the check's own process (inotify; elsewhere, a hard link to the previous file). The
    worker's temporary folder is on another file system than the export's folder wherever this machine has one
    (/dev/shm on Linux, also in the grader's sandbox): a partial file made there cannot be renamed onto the path
    (EXDEV); where there is none (macOS), a passing line says that this was not tested."""
    # the worker's TMPDIR, created before it starts: on another file system than the export's folder (the stack's
    # workdir, in this process's temp folder) wherever this machine has one, as when /tmp is a tmpfs of its own
    temp = Path(tempfile.mkdtemp(prefix="celerylab-export-tmp-", dir=other_file_system(Path(tempfile.gettempdir()))))
    try:
        export_runs(run, temp)
    finally:
        shutil.rmtree(temp, ignore_errors=True)


# where a second file system usually is: Linux's shared memory (a tmpfs, also in the grader's sandbox), then others
OTHER_PLACES = ("/dev/shm", "/run/shm", "/var/tmp")


def other_file_system(beside: Path, places: tuple[str, ...] = OTHER_PLACES) -> str | None:
    """The first of `places` this process may write in whose file system is not `beside`'s; None when none is."""
    try:
        device = beside.stat().st_dev
    except OSError:
        return None
    for place in places:
        try:
            if os.path.isdir(place) and os.access(place, os.W_OK | os.X_OK) and os.stat(place).st_dev != device:
                return place
        except OSError:
            continue
    return None


def export_runs(run: CheckRun, temp: Path) -> None:
    with started(run, workers=[helpers.worker("celery", env={"TMPDIR": str(temp)})], timeline=False) as stack:
        folder = stack.workdir / "exports"
        folder.mkdir()
        if temp.stat().st_dev == folder.stat().st_dev:  # no second file system here (macOS): say so, never a proof
            run.expect("l02.check.temp_same_file_system", True, True, temp=str(temp))
        for other in OTHER_EXPORTS:  # other exports', still being written
            (folder / other).write_text("row 1\n", encoding="utf-8")
        path = str(folder / "export.csv")
        (folder / "export.csv").write_text(PREVIOUS_EXPORT, encoding="utf-8")  # yesterday's complete export
        with OpenedForWriting(stack.workers[0].pid) as opened, FinalPaths(folder, ("export.csv",)) as cut:
            result = stack.app.send_task("ex.export", (path, 100))
            result.get(timeout=10, propagate=False)
        run.expect("l02.check.export_outcome", "FAILURE SoftTimeLimitExceeded", _outcome(result),
                   cause=result.result if isinstance(result.result, BaseException) else None)
        ran = _ran_for(stack, path, result)
        run.expect("l02.check.ran_to_the_limit", True, ended_at_the_limit(ran, 1), **ran_values(ran, 1))
        left = sorted(each.name for each in folder.iterdir()) + sorted(
            f"$TMPDIR/{each.name}" for each in temp.iterdir() if not each.name.startswith("pymp-"))  # the pool's own
        watched = (folder.resolve(), temp.resolve())
        left += sorted(str(each) for each in opened.paths  # anywhere else the worker wrote a file that is still there
                       if each.is_file() and not any(each.is_relative_to(place) for place in watched))
        run.expect("l02.check.partial_removed", sorted(["export.csv", *OTHER_EXPORTS]), left)
        previous = (folder / "export.csv").read_text(encoding="utf-8") if (folder / "export.csv").exists() else None
        run.expect("l02.check.previous_export_kept", True, previous == PREVIOUS_EXPORT,
                   found="-" if previous is None else f"{len(previous.splitlines())}")
        run.expect("l02.check.no_end", [], runs.events(stack, path, "end"))
        if run.graded(1):  # sent with a longer soft limit, it runs until that one: the limit is Celery's, not a timer
            longer = str(folder / "longer.csv")
            result = stack.app.send_task("ex.export", (longer, 100), soft_time_limit=1.5, time_limit=3)
            result.get(timeout=10, propagate=False)
            ran = _ran_for(stack, longer, result)
            run.expect("l02.check.ran_to_the_limit", True, _outcome(result) == "FAILURE SoftTimeLimitExceeded"
                       and ended_at_the_limit(ran, 1.5), hidden=True, **ran_values(ran, 1.5))
        short = folder / "short.csv"
        short.write_text(PREVIOUS_EXPORT, encoding="utf-8")  # the short export's complete previous one
        with FinalPaths(folder, ("short.csv",)) as finished:
            result = stack.app.send_task("ex.export", (str(short), 5))
            result.get(timeout=10, propagate=False)
        kept = short.exists() and short.read_text(encoding="utf-8") == SHORT_EXPORT
        run.expect("l02.check.short_export", ("SUCCESS", True), (result.state, kept),
                   cause=result.result if isinstance(result.result, BaseException) else None)
        run.expect("l02.check.replaced_in_one_step", [], cut.written + finished.written)
        run.expect("l02.check.export_limits", "soft_time_limit=1 time_limit=2", _registered_limits(stack))


EARLY, LATE = 0.1, 0.25  # how far before its soft limit a cut export may end, and how far after (load, the cleanup)


def ended_at_the_limit(ran: float | None, limit: float) -> bool:
    """Whether the cut export ran until its soft limit and ended there: from its start to its failure, no more than
    EARLY before the limit and no more than LATE after it (rows written past the limit show)."""
    return ran is not None and limit - EARLY <= ran <= limit + LATE


def ran_values(ran: float | None, limit: float) -> dict:
    return {"limit": localized.number(limit), "early": localized.number(EARLY), "late": localized.number(LATE),
            "ran": "-" if ran is None else f"{localized.number(ran, digits=2)} s"}


class OpenedForWriting:
    """Every regular file the worker's processes (the parent and its pool children) hold open for writing while the
    block runs, wherever it is, seen from the check's own process (/proc, every 0.05 s); files they held open before
    the block (their logs) are left out."""

    def __init__(self, pid: int) -> None:
        import threading

        self.pid, self.paths, self.before = pid, set(), set()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._poll, daemon=True)

    def _look(self) -> set[Path]:
        import psutil

        found: set[Path] = set()
        try:
            parent = psutil.Process(self.pid)
            processes = [parent, *parent.children(recursive=True)]
        except psutil.Error:
            return found
        for process in processes:
            try:
                found.update(Path(each.path) for each in process.open_files() if each.mode != "r")
            except psutil.Error:
                continue
        return found

    def _poll(self) -> None:
        while not self.stop.is_set():
            self.paths.update(self._look() - self.before)
            self.stop.wait(0.05)

    def __enter__(self) -> "OpenedForWriting":
        self.before = self._look()
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(5)


def _ran_for(stack, path: str, result) -> float | None:
    """Seconds from the cut run's `start` to its failure, both as the worker recorded them."""
    starts, done = runs.events(stack, path, "start"), result.date_done
    if not starts or done is None:
        return None
    return _timestamp(done) - starts[0]["at"]


def _timestamp(done) -> float:
    """A result's date_done (a datetime, naive in UTC, or its ISO text) as seconds since the epoch."""
    if isinstance(done, str):
        done = datetime.fromisoformat(done)
    if done.tzinfo is None:
        done = done.replace(tzinfo=timezone.utc)
    return done.timestamp()


def _registered_limits(stack) -> str:
    """The limits the worker registered for ex.export, as ``inspect registered`` prints them."""
    replies = stack.app.control.inspect(timeout=3, limit=len(stack.workers)).registered("soft_time_limit", "time_limit") or {}
    for tasks in replies.values():
        for line in tasks:
            if line.startswith("ex.export"):
                return line.partition("[")[2].rstrip("]") or "-"
    return "-"


def _outcome(result) -> str:
    if result.state == "FAILURE":
        return f"FAILURE {type(result.result).__name__}"
    return result.state
