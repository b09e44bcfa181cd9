"""Lesson 03's exercise checks: retry defaults, the registered backup, JSON-safe route arguments."""
from __future__ import annotations

import json
import time
import uuid
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import datetime, timezone

import httpx
import redis
from celery.exceptions import TimeoutError as CeleryTimeoutError
from kombu.exceptions import ContentDisallowed

from celerylab.checks import CheckRun, exercise
from celerylab.i18n import t
from celerylab.lessons.l03_silent_defects import given_tasks, helpers, retry_clock, served_together
from celerylab.lessons.l03_silent_defects.experiments.retry_wait import registered
from celerylab.polling import until
from celerylab.stack import WorkerSpec

PREFORK = [WorkerSpec(pool="prefork", concurrency=1)]
UNDECLARED = "celerylab.lessons.l03_silent_defects.undeclared"  # the check's tasks: declaring nothing, or 180 s
RETRY_CLOCK = "celerylab.lessons.l03_silent_defects.retry_clock"  # the check's record of when each retry was sent
GIVEN = "celerylab.lessons.l03_silent_defects.given_tasks"  # a task of the check's: a registered task's source
# the worker's clock is not on UTC (as a learner's machine may not be): a retry time computed from a naive local
# datetime.now() lands hours off; Celery's own (countdown, app.now()) does not
WORKER_TZ = "America/Sao_Paulo"
WITH_UNDECLARED = [WorkerSpec(pool="prefork", concurrency=1, env={"TZ": WORKER_TZ},
                              extra_args=("--include", f"{UNDECLARED},{GIVEN},{RETRY_CLOCK}"))]
GIVEN_TASKS = ("ex.send_invoice", "ex.welcome")  # the two tasks the statement says not to change
DEFINED_IN = "celerylab.lessons.l03_silent_defects.defined_in"  # a task of the check's: where a task is defined
BEAT_ENTRIES = "celerylab.lessons.l03_silent_defects.beat_entries"  # a task of the check's: the entries Beat builds
WITH_DEFINED_IN = [WorkerSpec(pool="prefork", concurrency=1, extra_args=("--include", f"{DEFINED_IN},{BEAT_ENTRIES}"))]
SHOP = "celerylab.lessons.l03_silent_defects.shop"
ENTRY = ("task", "every", "args", "kwargs", "options")
STUB_SCHEDULE: list[tuple] = [("data.backup_db", 3600.0, ["school"], {}, {}), ("data.cleanup", 86400.0, [], {}, {})]
KEPT = ["emails.welcome"]  # what the worker registered before the fix (data.cleanup is in the schedule)


# a wait is read from the retry's own message: from the moment the worker published it (a record of retry_clock, a
# module of the check's loaded into the worker) to its ETA, never more than the wait given; and from the moment the
# task started, never less. A right answer's wait lies between the two (a few thousandths apart, more under load);
# a wait a second short, a few hundredths long or with jitter does not. Without the record (a backend that did not
# keep it), the wait is read from the moment the check saw the RETRY state: up to EARLY less, LATE more.
EARLY, LATE = 1.5, 0.2
ROUNDING = 0.001  # the ETA and both moments are read to the microsecond: a thousandth for their arithmetic
AT_ONCE = 1.5  # seconds from sending ex.ping_partner to its FAILURE, its three retries at once included
UNLIMITED = (5, 99, 10**6)  # retries ex.poll_feed (max_retries=None) has had when the check sends it: far past any cap


@dataclass
class Wait:
    seconds: float | str  # ETA − the retry's publication (or the RETRY state seen), or the state it ended in instead
    early: float = 0.0    # how much less than the wait given `seconds` can be: the task's run up to the retry
    late: float = ROUNDING  # how much more
    ran: bool = False     # the worker held no ETA for the retry: it ran, `seconds` after its publication


def retried(stack, task_id: str, retry: int, inspect) -> tuple[str, datetime] | None:
    """("ran", when) once the retry that carries `retry` has started running (a record of retry_clock), else ("eta",
    its ETA) while the worker holds it; None when neither is seen yet."""
    backend = stack.app.backend
    ran = backend.get(retry_clock.key(backend, task_id, retry, "retry-ran"))
    if ran:
        return "ran", datetime.fromisoformat(json.loads(ran))
    eta = helpers.eta_of(inspect.scheduled(), task_id)
    return ("eta", eta) if eta is not None else None


def measure(stack, task: str, retries: int) -> tuple[Wait, str]:
    """(the wait the worker gave `task`'s next retry, sent as if retried `retries` times; the task id). A retry that
    ran at once (an ETA already past) is read as run, however fast its retries went by (a state seen after them)."""
    result = stack.app.send_task(task, (1,), retries=retries)
    state = helpers.wait_state(result, ("RETRY", "FAILURE"))
    seen = datetime.now(timezone.utc)
    backend = stack.app.backend
    clock = retry_clock.key(backend, result.id, retries + 1)
    record = backend.get(clock)  # written before the retry is published, so before its RETRY state
    if state != "RETRY" and not record:
        return Wait(state), result.id
    inspect = stack.app.control.inspect(timeout=1, limit=len(stack.workers))
    found = until(lambda: retried(stack, result.id, retries + 1, inspect), 10, step=helpers.POLL)
    if found is None:
        return Wait("NOT SCHEDULED"), result.id
    how, moment = found
    if how == "ran":  # retried at once: with no limit (max_retries=None) it would retry at once without end
        stack.app.control.revoke(result.id, destination=[worker.hostname for worker in stack.workers])
    record = record or until(lambda: backend.get(clock), 2, step=helpers.POLL)
    if not record:
        return Wait(round((moment - seen).total_seconds(), 2), EARLY, LATE, how == "ran"), result.id
    moments = json.loads(record)
    started, published = (datetime.fromisoformat(moments[name]) for name in ("started", "published"))
    return Wait((moment - published).total_seconds(), max((published - started).total_seconds(), 0.0),
                ran=how == "ran"), result.id


def near(expected: int, wait: Wait) -> tuple[bool, float | str]:
    """(whether `wait` is `expected` seconds, what to show: `expected` when it is, else the wait read)."""
    seconds = wait.seconds
    if not isinstance(seconds, (int, float)) or isinstance(seconds, bool):
        return False, seconds
    if expected - wait.early - ROUNDING <= seconds <= expected + wait.late + ROUNDING:
        return True, expected
    return False, round(seconds, 2)


def waits_and_budget(run: CheckRun, stack, name: str, wait: int, budget: int | None, countdown_key: str,
                     budget_key: str, retries: tuple[int, ...] | None = None, hidden: bool = False,
                     **fields) -> list[str]:
    """Each retry's wait of task `name` (`retries`, or every one up to `budget`), then its state once the budget is
    used: FAILURE. Returns the ids of the tasks it sent that are still retrying."""
    retrying = []
    for done in (retries if retries is not None else range(budget or 0)):
        measured, task_id = measure(stack, name, done)
        passed, shown = near(wait, measured)
        ran = t("l03.check.retry_ran", seconds=shown, expected=wait) if measured.ran else None
        run.expect(countdown_key, wait, shown, passed=passed, retry=done + 1, hidden=hidden, cause=ran, **fields)
        retrying.append(task_id)
    if budget is not None:
        measured, task_id = measure(stack, name, budget)
        retried = not isinstance(measured.seconds, str)  # its next retry's wait read: it retried
        cause = t("l03.check.retried_instead", retry=budget + 1, seconds=near(wait, measured)[1]) if retried else None
        run.expect(budget_key, "FAILURE", "RETRY" if retried else measured.seconds, retries=budget, hidden=hidden,
                   cause=cause, **fields)
        if measured.seconds != "FAILURE":
            retrying.append(task_id)
    return retrying


@exercise("l03.retry_defaults")
def retry_defaults(run: CheckRun) -> None:
    with run.stack(workers=WITH_UNDECLARED, timeline=False) as stack:
        # the given tasks as the stub has them (decorator and body): a task that declares the options itself would
        # behave as the base values do, and only for itself
        sources = {name: stack.app.send_task("l03.task_source", (name,)).get(timeout=10, propagate=False)
                   for name in GIVEN_TASKS}
        sources = {name: source if isinstance(source, str) else None for name, source in sources.items()}
        given = given_tasks.answer_cell(run.info.root / run.info.lesson / "lesson.md", run.info.id)
        run.expect("l03.check.given_unchanged", [], given_tasks.changed(given, sources))
        options = helpers.retry_options(registered(stack))
        run.expect("l03.check.invoice_options", (3, 60), options.get("ex.send_invoice"))
        # its three retries, each 60 s later, and FAILURE on the error after them
        retrying = waits_and_budget(run, stack, "ex.send_invoice", 60, 3, "l03.check.invoice_countdown",
                                    "l03.check.no_fourth")
        # once it ended in FAILURE, nothing of it is left to run later: no copy sent under another id (a fourth
        # attempt by another name), in the broker or held by the worker; its retries the check sent before are known
        run.expect("l03.check.nothing_left", [], left_for_later(stack, "ex.send_invoice", set(retrying)),
                   task="ex.send_invoice")
        # every task that declares nothing, whatever its name: at grading, two the statement does not name, one
        # under another prefix than "ex." and one with no prefix at all (a default given by name would miss them)
        for task, hidden in (("ex.sync_stock", False), ("billing.sync_prices", True), ("refresh_rates", True)):
            if hidden and not run.graded(2):
                continue
            run.expect("l03.check.undeclared_options", (3, 60), options.get(task), task=task, hidden=hidden)
            waits_and_budget(run, stack, task, 60, 3, "l03.check.undeclared_countdown", "l03.check.undeclared_no_more",
                             hidden=hidden, task=task)
        run.expect("l03.check.welcome_options", (3, 30), options.get("ex.welcome"))
        # each of its three retries: the declared wait, each time (not backed off), and no fourth
        waits_and_budget(run, stack, "ex.welcome", 30, 3, "l03.check.welcome_countdown", "l03.check.welcome_no_fourth")
        # an option a task declares is kept, in its attributes and in what the worker does, whatever its value: a
        # delay equal to Celery's default (not told apart by its value, nor by the task's name: graded, a second task
        # declares it), a max_retries of its own (over a "*" annotation), options declared on the base class the task
        # names (read as Python reads an attribute, not only in the task's own class), and values Celery reads as
        # false (a default filled in where the task's value is falsy, or `or 3`, would replace them): no retry (0),
        # no wait (0) and, graded, no limit (None: its sixth, its hundredth, its millionth retry, past any cap)
        for task, declared, expected, countdown, retries, hidden in (
                ("ex.audit_log", "default_retry_delay=180", (3, 180), 180, None, False),
                ("reports.archive", "default_retry_delay=180", (3, 180), 180, None, True),
                ("ex.import_feed", "max_retries=5", (5, 60), 60, None, False),  # five retries: it declares five
                ("ex.notify_partner", "max_retries=2, default_retry_delay=10 (base=PartnerCall)", (2, 10), 10, None,
                 False),  # two retries, the declared wait each time; no third
                ("ex.poll_feed", "max_retries=None", (None, 60), 60, UNLIMITED, True)):
            if hidden and not run.graded(2):
                continue
            run.expect("l03.check.declared_options", expected, options.get(task), task=task, declared=declared,
                       hidden=hidden)
            waits_and_budget(run, stack, task, countdown, expected[0], "l03.check.declared_countdown",
                             "l03.check.declared_no_more", retries=retries, hidden=hidden, task=task,
                             declared=declared)
        run.expect("l03.check.declared_options", (0, 60), options.get("ex.charge_once"), task="ex.charge_once",
                   declared="max_retries=0")
        # not even a first retry: its state once sent, FAILURE (RETRY when it retried)
        waits_and_budget(run, stack, "ex.charge_once", 60, 0, "l03.check.declared_countdown",
                         "l03.check.declared_no_more", task="ex.charge_once", declared="max_retries=0")
        run.expect("l03.check.declared_options", (3, 0), options.get("ex.ping_partner"), task="ex.ping_partner",
                   declared="default_retry_delay=0")
        # sent as never retried: its three retries go at once (no ETA), and it ends in FAILURE right away, the
        # seconds measured; with a wait filled in (even a floor of a second or two) it sits in RETRY that long each time
        started = time.monotonic()
        at_once = stack.app.send_task("ex.ping_partner", (1,))
        state = helpers.wait_state(at_once, ("FAILURE",), timeout=10)
        elapsed = round(time.monotonic() - started, 1)
        run.expect("l03.check.declared_at_once", "FAILURE", state, task="ex.ping_partner",
                   declared="default_retry_delay=0", retries=3)
        run.expect("l03.check.declared_at_once_seconds", f"≤ {AT_ONCE:g}", elapsed, passed=elapsed <= AT_ONCE,
                   task="ex.ping_partner", declared="default_retry_delay=0", retries=3)
        # the app's configuration, not Celery's: another app in the same process keeps Celery's defaults, in its
        # attributes and when it retries (a task of that app retried in the worker's process: the wait of each of its
        # three retries, and no fourth)
        fresh = stack.app.send_task("l03.fresh_app_defaults").get(timeout=10, propagate=False)
        run.expect("l03.check.fresh_app", [3, 180, 180, 180, 180, "FAILURE"],
                   fresh if isinstance(fresh, list) else repr(fresh))


def left_for_later(stack, task: str, known: set[str]) -> list[str]:
    """Where each copy of `task` still waiting to run is, other than `known` ids (the check's own, still retrying):
    held by the worker ("active", "scheduled": an ETA, "reserved") or kept by the broker ("broker": queued, or
    delivered and not acknowledged), looked for twice (a message taken from the queue at the first look is in the
    worker's memory by the second); sorted, one per id. Lesson 01's leftovers.left_for_later looks the same way, by
    name (a lesson imports no other: a shared home for both belongs outside the lessons); here by id, the check's
    own retries staying scheduled."""
    found: dict[str, str] = {}
    for look in range(2):
        if look:
            time.sleep(SECOND_LOOK)
        # this stack's workers only: another check's worker on the same broker answers a broadcast too
        inspect = stack.app.control.inspect(destination=[worker.hostname for worker in stack.workers], timeout=1,
                                            limit=len(stack.workers))
        for method in ("active", "scheduled", "reserved"):
            for entries in (helpers.answer(getattr(inspect, method)) or {}).values():
                for entry in entries or []:
                    request = entry.get("request", entry) if isinstance(entry, dict) else {}
                    if task in (request.get("name"), request.get("type")):
                        found.setdefault(str(request.get("id")), method)
        for name, task_id in broker_ids(stack):
            if name == task:
                found.setdefault(task_id, "broker")
    return sorted(place for task_id, place in found.items() if task_id not in known)


SECOND_LOOK = 0.3  # seconds between the two looks of left_for_later


def message_headers(raw: bytes | str) -> dict:
    """The headers of a raw Redis message (queued, or `unacked`'s [message, exchange, key]); {} for anything else."""
    try:
        message = json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        return {}
    message = message[0] if isinstance(message, list) and message else message
    found = message.get("headers") if isinstance(message, dict) else None
    return found if isinstance(found, dict) else {}


def broker_ids(stack) -> list[tuple[str, str]]:
    """(task name, id) of the task messages the broker holds under the stack's key namespace: queued, or delivered
    and not acknowledged (a worker holds it for its ETA)."""
    client = redis.Redis.from_url(stack.broker.url)
    found = []
    try:
        literal = "".join(f"\\{char}" if char in "*?[]\\" else char for char in stack.namespace)  # SCAN pattern
        for key in client.scan_iter(match=literal + "*", count=500):
            kind = client.type(key)
            raws = (client.lrange(key, 0, -1) if kind == b"list" else
                    client.hvals(key) if kind == b"hash" and key.endswith(b"unacked") else [])
            found += [(str(head.get("task")), str(head.get("id"))) for raw in raws if (head := message_headers(raw))]
    finally:
        client.close()
    return found


@exercise("l03.backup_registered")
def backup_registered(run: CheckRun) -> None:
    with run.stack(workers=WITH_DEFINED_IN, timeline=False) as stack:
        hostname = stack.workers[0].hostname
        inspect = stack.app.control.inspect(destination=[hostname], timeout=1)
        # the entries Beat builds from the beat_schedule the worker loaded (one it cannot build is never sent)
        schedule = stack.app.send_task("l03.beat_entries").get(timeout=10, propagate=False)
        schedule = schedule if isinstance(schedule, list) else []
        scheduled = sorted(spec["task"] for spec in schedule)
        run.expect("l03.check.schedule", ["data.backup_db", "data.cleanup"], scheduled)
        # as the stub has them: the fix adds no option (an expiry drops a backup sent while the worker is busy)
        run.expect("l03.check.schedule_entries", STUB_SCHEDULE,
                   sorted((tuple(spec[key] for key in ENTRY) for spec in schedule), key=repr))
        registered = set((inspect.registered() or {}).get(hostname, []))
        run.expect("l03.check.registered", [], [name for name in scheduled if name not in registered])
        run.expect("l03.check.kept_registered", [], [name for name in KEPT if name not in registered])
        defined = stack.app.send_task("l03.defined_in", ("data.backup_db",)).get(timeout=10, propagate=False)
        run.expect("l03.check.backup_defined_in", f"{SHOP}.scheduled", defined)
        for spec in schedule:  # as Beat sends it: the entry's arguments and its options (queue, expiry...)
            result = stack.app.send_task(spec["task"], tuple(spec["args"]), spec["kwargs"], **spec["options"])
            try:
                result.get(timeout=10, propagate=False)
            except CeleryTimeoutError:  # sent where no worker of the app consumes: it never runs
                pass
            run.expect("l03.check.sent_by_name", "SUCCESS", result.state, task=spec["task"])
            if spec["task"] == "data.backup_db":
                outcome = result.result if result.state == "SUCCESS" else repr(result.result)
                run.expect("l03.check.backup_result", {"status": "ok", "database": "school"}, outcome)
        if run.graded(1):
            result = stack.app.send_task("data.backup_db", ("reports",))
            run.expect("l03.check.backup_result", {"status": "ok", "database": "reports"},
                       result.get(timeout=10, propagate=False), hidden=True)


def post(stack, url: str, path: str, **body):
    """POST on a fresh connection (a 500 may close a kept-alive one); (status, the task's result, or None when
    no task with the id it answered ended within 10 s)."""
    with httpx.Client(base_url=url, timeout=10) as http:
        response = http.post(path, **body)
    if response.status_code >= 300:
        return response.status_code, None
    try:
        return response.status_code, stack.app.AsyncResult(response.json()["task_id"]).get(timeout=10, propagate=False)
    except (CeleryTimeoutError, ContentDisallowed, ValueError, KeyError, TypeError):  # nothing ran, a result in
        # a format the check refuses (pickle), or an answer without a task_id
        return response.status_code, None


TOGETHER = "celerylab.lessons.l03_silent_defects.served_together"  # the learner's API, letting a group in at once
# two requests served at once, long enough that their route calls overlap: a state they share shows
PAIR = {"first": ([3, 7] * 100_000, ["caio@example.com", "duda@example.com"]),
        "second": ([10, 5] * 100_000, ["bia@example.com", "edu@example.com"])}
ROUNDS = 3  # how the threads interleave varies: a shared state showed in 9 pairs of 10 here, so three pairs
# many short requests served at once, each with ids of its own: a state shared for a moment only (a variable written,
# then read back after a log line) shows when route calls overlap by the dozen, not in one pair
EMAILS = {3: "caio@example.com", 5: "bia@example.com", 7: "duda@example.com", 10: "edu@example.com"}
BURST = [[3], [5], [7], [10], [3, 5], [3, 7], [3, 10], [5, 7], [5, 10], [7, 10], [3, 5, 7], [5, 7, 10]]
BURST_ROUNDS = 4


def notified_together(run: CheckRun, stack, url: str) -> bool:
    """The /notify requests of PAIR, let into the API at the same moment: each gets its own distinct ids."""
    for _ in range(ROUNDS):
        headers = {served_together.GROUP.decode(): f"{uuid.uuid4().hex}/{len(PAIR)}"}
        with ThreadPoolExecutor(len(PAIR)) as pool:
            sent = [pool.submit(post, stack, url, "/notify", json={"ids": ids}, headers=headers)
                    for ids, _ in PAIR.values()]
            observed = [outcome if status < 300 else f"HTTP {status}" for status, outcome in
                        (future.result() for future in sent)]
        if observed != [expected for _, expected in PAIR.values()]:
            break
    described = {name: f"{ids[:2]} × {len(ids) // 2}" for name, (ids, _) in PAIR.items()}
    return run.expect("l03.check.notify_together", [expected for _, expected in PAIR.values()], observed,
                      **described) and notified_in_bursts(run, stack, url)


def notified_in_bursts(run: CheckRun, stack, url: str) -> bool:
    """BURST's /notify requests, let into the API at the same moment, BURST_ROUNDS times: those whose result is
    not the e-mails of their own ids."""
    wrong: list[str] = []
    for _ in range(BURST_ROUNDS):
        headers = {served_together.GROUP.decode(): f"{uuid.uuid4().hex}/{len(BURST)}"}
        with ThreadPoolExecutor(len(BURST)) as pool:
            sent = [pool.submit(post, stack, url, "/notify", json={"ids": ids[::-1] * 2}, headers=headers)
                    for ids in BURST]
            for ids, (status, outcome) in zip(BURST, (future.result() for future in sent)):
                expected = [EMAILS[user] for user in ids]
                if status >= 300 or outcome != expected:
                    wrong.append(f"{ids[::-1] * 2} → {outcome if status < 300 else f'HTTP {status}'}")
        if wrong:
            break
    return run.expect("l03.check.notify_burst", [], wrong, count=len(BURST), rounds=BURST_ROUNDS)


# a worker refuses to start as root once its app accepts pickle: let it start, so the check can say why that is wrong
# one pool process: the e-mail the check changes there is the one the learner's task reads
WORKER_EDIT = "celerylab.lessons.l03_silent_defects.worker_edit"
JSON_WORKER = [WorkerSpec(pool="prefork", concurrency=1, env={"C_FORCE_ROOT": "1"},
                          extra_args=("--include", WORKER_EDIT))]


def serializers_read(stack) -> dict | None:
    """{task_serializer, accept_content, result_serializer, result_accept_content} as a task of the check's reads them in the worker; None when it cannot."""
    for serializer in ("json", "pickle"):  # the check only writes pickle (the answer comes back in the result's format)
        try:
            read = stack.app.send_task("l03.serializers", serializer=serializer).get(timeout=5, propagate=False)
        except (CeleryTimeoutError, ContentDisallowed):  # refused by the worker, or a result the check does not load
            continue
        if isinstance(read, list) and len(read) == 4:
            return dict(zip(("task_serializer", "accept_content", "result_serializer", "result_accept_content"), read))
    return None


def codec_faults_in_worker(stack) -> list | str:
    """What differs from kombu's own JSON serializer in the worker's pool process (an error's repr if unread)."""
    try:
        faults = stack.app.send_task("l03.json_codec").get(timeout=10, propagate=False)
    except Exception as error:  # a result the check cannot load, or none
        return repr(error)
    return faults if isinstance(faults, list) else repr(faults)


def codec_faults_in_api(url: str) -> list | str:
    """The same, in the process that serves the learner's API (and publishes its tasks)."""
    try:
        with httpx.Client(base_url=url, timeout=10) as http:
            faults = http.get(served_together.CODEC).json()
    except (httpx.HTTPError, ValueError) as error:
        return repr(error)
    return faults if isinstance(faults, list) else repr(faults)


@exercise("l03.json_args")
def json_args(run: CheckRun) -> None:
    """Two routes, their tasks' results, and JSON as the only serializer; hidden: other users, ids of two digits,
    where sorting them as text ("10" < "3") or trusting a set's order gives another order than id order, and a
    user whose e-mail changed in the worker: a task handed a copy of the user (a dict, a registered type)
    returns the e-mail the API process had, not the one the user has when the task runs (users.notify included),
    two ids that share one address: each distinct id gives its e-mail, so the address comes twice, and the empty
    list, and users only the worker has (added there, after the API process started: an API that checks ids against
    its own users drops or refuses them); live: two long /notify requests served at once, each with its own ids (a
    state the requests share)."""
    with run.stack(workers=JSON_WORKER, timeline=False) as stack:
        hostname = stack.workers[0].hostname
        inspect = stack.app.control.inspect(destination=[hostname], timeout=1)
        try:
            conf = helpers.answer(inspect.conf, True).get(hostname) or {}  # with_defaults: settings left as they were
            refused = None
        except ContentDisallowed as error:  # a worker whose app serializes with pickle answers in pickle: its
            # settings read by a task of the check's instead, sent in JSON and then in pickle (what it accepts)
            conf, refused = {"task_serializer": "pickle"}, error
            conf.update(serializers_read(stack) or {})
        if not run.expect("l03.check.serializer", ["json", ["json"]],
                          [conf.get("task_serializer"), list(conf.get("accept_content") or [])], cause=refused):
            return
        # results too (result_accept_content unset: Celery reads accept_content)
        if not run.expect("l03.check.result_serializer", ["json", ["json"]],
                          [conf.get("result_serializer"),
                           list(conf.get("result_accept_content") or conf.get("accept_content") or [])]):
            return
        url = stack.add_http_app("api", f"{TOGETHER}:api", env={served_together.MODULE: run.module}).url
        # "json" is kombu's own JSON where the worker decodes and where the API publishes: one registered in its place
        # (or taking over application/json) can carry pickle inside a JSON document while the settings read "json"
        if not (run.expect("l03.check.json_codec_worker", [], codec_faults_in_worker(stack))
                and run.expect("l03.check.json_codec_api", [], codec_faults_in_api(url))):
            return
        cases: list[tuple[str, dict, object, bool]] = [("/users/5/process", {}, {"id": 5, "email": "bia@example.com"}, False),
                 ("/notify", {"json": {"ids": [7, 3, 7]}}, ["caio@example.com", "duda@example.com"], False),
                 ("/users/3/process", {}, {"id": 3, "email": "caio@example.com"}, True),
                 ("/users/10/process", {}, {"id": 10, "email": "edu@example.com"}, True),
                 ("/notify", {"json": {"ids": [5, 5]}}, ["bia@example.com"], True),
                 ("/notify", {"json": {"ids": [7, 5, 3, 5]}}, ["caio@example.com", "bia@example.com",
                                                               "duda@example.com"], True),
                 ("/notify", {"json": {"ids": [10, 3, 10, 7]}}, ["caio@example.com", "duda@example.com",
                                                                 "edu@example.com"], True),
                 ("/notify", {"json": {"ids": [7, 3, 7]}}, ["caio@example.com", "duda@example.com"], True),
                 ("/notify", {"json": {"ids": []}}, [], True),
                 ("/users/7/process", {}, {"id": 7, "email": "duda.nova@example.com"}, True),
                 # the users as they are when the task runs, for notify too; two ids sharing one address (a
                 # shared mailbox) are two distinct ids: the address comes once for each
                 ("/notify", {"json": {"ids": [10, 7, 3]}}, ["caio@example.com", "duda.nova@example.com",
                                                           "edu@example.com"], True),
                 ("/notify", {"json": {"ids": [10, 7, 10]}}, ["duda.nova@example.com"] * 2, True),
                 # users only the worker has (added after the API process started), one or two digits
                 ("/users/99/process", {}, {"id": 99, "email": "hugo@example.com"}, True),
                 ("/notify", {"json": {"ids": [99, 8, 3, 99]}}, ["caio@example.com", "gabi@example.com",
                                                               "hugo@example.com"], True)]
        changes = {9: [("l03.change_email", (7, "duda.nova@example.com"))],  # before the case of that index
                   11: [("l03.change_email", (10, "duda.nova@example.com"))],
                   12: [("l03.add_user", (99, "hugo@example.com")), ("l03.add_user", (8, "gabi@example.com"))]}
        for index, (path, body, expected, hidden) in enumerate(cases):
            if index == 2 and not notified_together(run, stack, url):  # before any e-mail changes
                return
            if hidden and not run.graded(2):
                continue
            if index in changes:
                try:
                    for task, args in changes[index]:
                        stack.app.send_task(task, (run.module, *args)).get(timeout=10)
                except Exception as error:  # an app that refuses JSON results, a load_user or USERS rewritten
                    run.expect("l03.check.route_result", expected, None, path=path, hidden=True, cause=error)
                    return
            status, outcome = post(stack, url, path, **body)
            if not (run.expect("l03.check.route_status", "2xx", f"{status // 100}xx", path=path, hidden=hidden)
                    & run.expect("l03.check.route_result", expected, outcome, path=path, hidden=hidden)):
                return
