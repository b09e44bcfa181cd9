"""Lesson 06's exercise checks: routing under load through the API, starvation behind a long task, a chord with a bad chunk."""
from __future__ import annotations

import ast
import datetime
import json
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx
from celery import chord

from celerylab import polling
from celerylab.appdb import execute
from celerylab.checks import CheckRun, exercise
from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.lessons.l06_architecture.acks import UnackedSampler
from celerylab.lessons.l06_architecture.experiments.prefetch_starvation import LONG, SHORTS
from celerylab.stack import WorkerSpec, appconfig

WAIT_LIMIT = 0.5  # seconds a short e-mail may wait while heavy exports run
STARVE_LIMIT = 1.0  # seconds a short task may wait behind a 2-second one
MAX_WORKERS = 2  # the deployment's budget: two prefork -c 1 workers
EXPORT_SECONDS = 1.0  # each grades export in the routing check
# the app's routes, asked of a producer process that imports the answer (as the API does): the ones that already
# existed, the export's (heavy is the one queue where it delays nobody), and a task without a route still on default
OLD_ROUTES = {"email.send_welcome": "priority", "report.build_pdf": "heavy", "report.export_grades": "heavy",
              "l06.short": "default"}
# tasks the app does not define, a producer sending them by name: one of another namespace, and two whose names
# start as the e-mails' and the reports' do (a route for those is for `email.` and `report.` tasks, not for these)
UNKNOWN_TASKS = ["school.nightly_cleanup", "reports_archive.rotate", "emailing.digest"]
# the (arguments, keyword arguments) each is asked with, across the range a producer sends, positional or by keyword:
# one student or three hundred, an export of no time at all or of an hour (a route is the task's, whatever its size)
ROUTE_ARGS: dict[str, list[tuple[tuple, dict]]] = {
    "email.send_welcome": [(("ana@example.com", "Ana"), {}), ((), {"email": "ana@example.com", "name": "Ana"})],
    "report.build_pdf": [(([7], "2026-1", 0.01), {}), ((list(range(300)), "2026-1", 0.5), {}),
                         ((), {"student_ids": [7], "period": "2026-1", "step": 0.01}),
                         (([7],), {"period": "2026-1"}), ((), {"student_ids": list(range(300)), "period": "2026-1"})],
    "report.export_grades": [(("2026-1", 0.0), {}), (("2026-1", 0.01), {}), (("2026-1", 3600.0), {}),
                             ((), {"period": "2026-1", "seconds": 0.0}), (("2026-1",), {"seconds": 0.01}),
                             ((), {"period": "2026-1", "seconds": 3600.0}), (("2026-1",), {})],
    "l06.short": [((0,), {}), ((), {"n": 0})]}
# at grading, sizes far beyond: a report of a hundred thousand students, exports of a day and of a week
HIDDEN_ROUTE_ARGS: dict[str, list[tuple[tuple, dict]]] = {
    "report.build_pdf": [((list(range(100_000)), "2026-1", 0.5), {}),
                         ((), {"student_ids": list(range(100_000)), "period": "2026-1", "step": 0.5})],
    "report.export_grades": [(("2026-1", 86400.0), {}), ((), {"period": "2026-1", "seconds": 7 * 86400.0})]}
OTHER_ARGS: list[tuple[tuple, dict]] = [((), {}), ((list(range(50)),), {})]  # every other task: none, 50 items
# published at the end by the producer: each must be received by the worker of its queue (a route whose exchange no
# queue is bound to still answers "heavy", and loses the message)
DELIVERED = [("report.build_pdf", ([7], "2026-9", 0.01)), ("email.send_welcome", ("bia@example.com", "Bia")),
             ("report.export_grades", ("2026-9", 0.01))]


def unrouted_tasks() -> list[str]:
    """Every other task of the lesson's app (the statement's e-mails and reports aside, Celery's own too), and some it
    does not define (UNKNOWN_TASKS): none of them may leave the default queue."""
    return sorted(name for name in tasks.app.tasks if not name.startswith(("celery.", "email.", "report."))
                  and name not in OLD_ROUTES) + UNKNOWN_TASKS


DAY, HOUR = 86400, 3600


def clock_moments(now: float) -> dict[str, float]:
    """The wall clock times the routes are also asked at, by name: the coming Tuesday at 03:00, 13:00 and 21:00 UTC
    (night, business hours, evening) and the coming Sunday at 15:00 UTC (a weekend)."""
    today = int(now // DAY)  # days since 1970-01-01, a Thursday: its weekday (Monday 0) is (day + 3) % 7

    def coming(weekday: int) -> int:
        return today + ((weekday - (today + 3)) % 7 or 7)

    tuesday, sunday = coming(1) * DAY, coming(6) * DAY
    return {"Tuesday 03:00 UTC": tuesday + 3 * HOUR, "Tuesday 13:00 UTC": tuesday + 13 * HOUR,
            "Tuesday 21:00 UTC": tuesday + 21 * HOUR, "Sunday 15:00 UTC": sunday + 15 * HOUR}


def clock_sweep(now: float) -> list[float]:
    """More wall clock times, all ahead of `now`: every hour of the coming seven days from Saturday 00:00 UTC (every
    day of the week, the minute moving from hour to hour), the last two days and the first of each of the coming
    thirteen months (a year's end among them) and the next 29 February, and the night of each daylight saving switch
    (Europe's and the United States') in the coming year."""
    today = int(now // DAY)
    saturday = (today + ((5 - (today + 3)) % 7 or 7)) * DAY
    moments = [float(saturday + day * DAY + hour * HOUR + (day * 17 + hour * 7) % 60 * 60)
               for day in range(7) for hour in range(24)]
    utc = datetime.timezone.utc
    first = datetime.datetime.fromtimestamp(now, utc).date().replace(day=1)
    for n in range(1, 14):
        month = datetime.datetime(first.year + (first.month + n - 1) // 12, (first.month + n - 1) % 12 + 1, 1,
                                  tzinfo=utc).timestamp()
        moments += [month - 2 * DAY + 6 * HOUR, month - DAY + 12 * HOUR, month - 30.0, month + 30.0]
    year = datetime.datetime.fromtimestamp(now, utc).year + 1
    leap = next(y for y in range(year, year + 8) if y % 4 == 0 and (y % 100 or y % 400 == 0))
    moments.append(datetime.datetime(leap, 2, 29, 23, 30, tzinfo=utc).timestamp())

    def sunday(month: int, nth: int) -> datetime.datetime:  # nth Sunday of the month (-1: the last)
        days = [datetime.datetime(year, month, d, tzinfo=utc) for d in range(1, 32)
                if d <= 28 or (datetime.date(year, month, 1) + datetime.timedelta(days=d - 1)).month == month]
        return [d for d in days if d.weekday() == 6][nth]

    for switch, hour in ((sunday(3, -1), 1), (sunday(10, -1), 1), (sunday(3, 1), 7), (sunday(11, 0), 6)):
        moments += [switch.timestamp() + hour * HOUR - 30.0, switch.timestamp() + hour * HOUR + 30.0]
    return [moment for moment in moments if moment > now]


def moment_tag(moment: float) -> str:
    """A wall clock time as the feedback shows it: ``2026-12-12 00:00 UTC``."""
    return datetime.datetime.fromtimestamp(moment, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


SHOWN_CASES = 4  # cases the feedback shows of a task routed to a wrong queue; the rest are counted


def routes_asked(stack, module: str, hidden: bool = False) -> tuple[dict, dict]:
    """The queues the answer's producer routes to, asked with ROUTE_ARGS (at grading HIDDEN_ROUTE_ARGS too) and
    OTHER_ARGS: with idle queues now, with idle queues on a Tuesday at three hours of the day and at every moment of
    clock_sweep, and with a backlog in every queue on a Sunday and at a month's end (at grading, again now with
    hundreds of messages waiting: HIDDEN_BACKLOG). A route is the task's at any time and any load. Returns ({task of
    OLD_ROUTES: its queue}, {other task leaving default: ...}), where a task routed anywhere else than it should shows
    each such queue with the cases that got it (the first SHOWN_CASES of them, and how many more)."""
    route_args = {name: cases + (HIDDEN_ROUTE_ARGS.get(name, []) if hidden else [])
                  for name, cases in ROUTE_ARGS.items()}
    asked = [(name, args, kwargs) for name, cases in route_args.items() for args, kwargs in cases]
    asked += [(name, args, kwargs) for name in unrouted_tasks() for args, kwargs in OTHER_ARGS]
    now = time.time()
    named = clock_moments(now)
    sweep: list[float | None] = list(clock_sweep(now))
    month_end = next(moment for moment in sweep[7 * 24:] if moment is not None and moment_tag(moment)[8:10] != "01")
    sunday = named["Sunday 15:00 UTC"]
    runs: list[tuple[dict[str, int], list[float | None]]] = [  # (backlog, the moments asked, in order)
        ({}, [None]), ({}, [named[name] for name in named if name.startswith("Tuesday")]), ({}, sweep),
        (dict.fromkeys(QUEUES, BACKLOG), [sunday, month_end])]
    if hidden:
        runs.append((HIDDEN_BACKLOG, [None]))
    seen: dict[str, dict[str, list[str]]] = {}
    for backlog, moments in runs:
        queues = _producer(stack, module, "route", asked, backlog, tuple(m for m in moments if m is not None))
        cases = [(name, args, kwargs, when) for when in moments for name, args, kwargs in asked]
        for (name, args, kwargs, when), queue in zip(cases, queues):
            load = f"backlog {sum(backlog.values())}" if backlog else ""
            tags = ", ".join(tag for tag in (load, moment_tag(when) if when is not None else "") if tag)
            case = shown(args, kwargs) + (f" [{tags}]" if tags else "")
            seen.setdefault(name, {}).setdefault(queue, []).append(case)

    def told(name: str, expected: str) -> object:
        wrong = {queue: cases[:SHOWN_CASES] + ([f"… +{len(cases) - SHOWN_CASES}"] if len(cases) > SHOWN_CASES else [])
                 for queue, cases in sorted(seen.get(name, {}).items()) if queue != expected}
        return wrong or expected

    routes = {name: told(name, queue) for name, queue in OLD_ROUTES.items()}
    moved = {name: told(name, "default") for name in unrouted_tasks() if set(seen.get(name, {})) != {"default"}}
    return routes, moved


def shown(args: tuple, kwargs: dict | None = None) -> str:
    """Arguments as the feedback shows them, long lists shortened: ``([300 items], '2026-1', step=0.5)``."""
    def one(value) -> str:
        return f"[{len(value)} items]" if isinstance(value, list) and len(value) > 3 else repr(value)

    return "(" + ", ".join([one(a) for a in args] + [f"{k}={one(v)}" for k, v in (kwargs or {}).items()]) + ")"


ROUTES_LITERAL = "task_routes = {...} (1×)"
#: words naming the routes (task_routes, and its old name CELERY_ROUTES) or the router built from them (app.amqp): in
#: the answer's source, none but the one assignment
ROUTING_NAMES = ("task_routes", "celery_routes", "amqp")


def routes_in_source(path: Path) -> str | list[str]:
    """How the answer's file sets the routes, read (never run): ROUTES_LITERAL when `task_routes` is assigned once, at
    the top level of the module (no if, def, loop or with around it), a dict written out whose every key and value is
    a literal (ast.literal_eval), and no other line names task_routes (as an attribute, a name, a keyword or in a
    string: a second assignment, ``[...] =``, ``.update``, setattr) or the app's router (``amqp``). Otherwise the
    lines that do, each as ``line N: code`` (the reason a routing that changes with the process, the clock or the
    count of tasks sent is refused: every process imports the same file and holds the same routes all along)."""
    try:
        source = path.read_text(encoding="utf-8")
        tree = ast.parse(source)
    except (OSError, SyntaxError, ValueError) as error:
        return [str(error)]

    docstrings = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)
                  and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)}

    def names(node: ast.AST) -> bool:
        if id(node) in docstrings:
            return False
        if isinstance(node, ast.Attribute):
            word = node.attr
        elif isinstance(node, ast.Name):
            word = node.id
        elif isinstance(node, ast.keyword):
            word = node.arg or ""
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            word = node.value
        else:
            return False
        return any(name in word.lower() for name in ROUTING_NAMES)

    def literal(value: ast.expr) -> bool:
        try:
            return type(ast.literal_eval(value)) is dict
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return False

    declared = [node for node in tree.body if isinstance(node, ast.Assign) and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Attribute) and node.targets[0].attr == "task_routes"
                and isinstance(node.value, ast.Dict) and literal(node.value)]
    allowed = {id(declared[0].targets[0])} if len(declared) == 1 else set()
    lines = sorted({node.lineno for node in ast.walk(tree) if names(node) and id(node) not in allowed
                    and hasattr(node, "lineno")}
                   | ({node.lineno for node in declared} if len(declared) > 1 else set()))
    if declared and not lines:
        return ROUTES_LITERAL
    text = source.splitlines()
    return [f"line {n}: {text[n - 1].strip()[:120]}" for n in lines] or ["task_routes = ?"]


def one_process_layout() -> list[WorkerSpec]:
    """The compose layout with one process per worker: default, priority, heavy."""
    return [WorkerSpec(pool="prefork", concurrency=1, queues=(queue,), name=queue)
            for queue in ("default", "priority", "heavy")]


def started_after(stack, task_id: str, sent: float, timeout: float = 10) -> float | None:
    """Seconds from `sent` to the start the task returned; None if it never ran in time."""
    try:
        return stack.app.AsyncResult(task_id).get(timeout=timeout)["started_at"] - sent
    except Exception:
        return None


def short_started_after(result, sent: float, timeout: float = 10) -> float | None:
    """Seconds from `sent` to the start an ``l06.short`` returned; None if it never ran in time."""
    try:
        return result.get(timeout=timeout) - sent
    except Exception:
        return None


@exercise("l06.route_heavy")
def route_heavy(run: CheckRun) -> None:
    # (period, seconds) of each export; at grading one more, shorter: an export is heavy whatever its length
    exports = [("2026-0", EXPORT_SECONDS), ("2026-1", EXPORT_SECONDS)] + ([("2026-2", 0.3)] if run.include_hidden else [])
    with run.stack(workers=one_process_layout(), timeline=False, http_apps={"api": f"{run.module}:api"}) as stack:
        routes, moved = routes_asked(stack, run.module, run.include_hidden)
        if not run.expect("l06.check.old_routes", OLD_ROUTES, routes):
            return  # the first failed criterion decides: no exports to wait for
        if not run.expect("l06.check.routes_declared", {"producer": DECLARED, "workers": DECLARED, "replaced": []},
                          routes_declared(stack, run.module)):
            return
        run.expect("l06.check.routes_literal", ROUTES_LITERAL, routes_in_source(run.workdir / f"{run.module}.py"))
        run.expect("l06.check.unrouted_default", {}, moved)
        with httpx.Client(base_url=stack.service_url("api"), timeout=10) as api:
            export_ids = [helpers.task_id_from(api.post("/grades/export", json={"period": period, "seconds": seconds}),
                                               stack) for period, seconds in exports]
            received, holders = True, []  # once one export is never received, the others are not waited for as long
            for task_id in export_ids:
                holders.append(helpers.receiver_of(stack, task_id, timeout=10 if received else 0.5))
                received = holders[-1] != "-" and received
            resets, e_mails = [], []  # the e-mails' waits; the ids of the e-mails the API sent (the resets', the welcome)
            for n in range(2):
                sent = time.time()
                e_mails.append(helpers.task_id_from(
                    api.post("/users/password-reset", json={"email": f"user{n}@example.com"}), stack))
                resets.append(started_after(stack, e_mails[-1], sent))
            sent = time.time()
            e_mails.append(helpers.task_id_from(
                api.post("/users/register", json={"name": "Ana", "email": "ana@example.com"}), stack))
            welcome = started_after(stack, e_mails[-1], sent)
            sent = time.time()
            other = stack.app.send_task("l06.short", (0,), queue="default")  # the default queue's other work
            default = short_started_after(other, sent)
        states = [stack.app.AsyncResult(task_id) for task_id in export_ids]
        # an export nobody received will not finish (it reads PENDING below): no long wait for it
        polling.until(lambda: all(result.ready() for result in states), 20 if received else 1, step=0.1)
        shown = [f"{w:.2f} s" if w is not None else "-" for w in resets]
        run.expect("l06.check.reset_wait", f"< {WAIT_LIMIT} s", ", ".join(shown),
                   passed=all(w is not None and w < WAIT_LIMIT for w in resets))
        run.expect("l06.check.welcome_wait", f"< {WAIT_LIMIT} s", f"{welcome:.2f} s" if welcome is not None else "-",
                   passed=welcome is not None and welcome < WAIT_LIMIT)
        run.expect("l06.check.default_wait", f"< {WAIT_LIMIT} s", f"{default:.2f} s" if default is not None else "-",
                   passed=default is not None and default < WAIT_LIMIT)
        run.expect("l06.check.exports_on_heavy", ["heavy"] * len(exports), holders)
        # the API process's own routes: the e-mails it sent reached priority (fast on an idle default queue too)
        run.expect("l06.check.api_emails_on_priority", ["priority"] * len(e_mails),
                   [helpers.receiver_of(stack, task_id, timeout=2) for task_id in e_mails])
        run.expect("l06.check.exports_done", ["SUCCESS"] * len(exports), [result.state for result in states])
        delivered = {name: helpers.receiver_of(stack, task_id)
                     for (name, _), task_id in zip(DELIVERED, producer_sends(stack, run.module, DELIVERED))}
        run.expect("l06.check.delivered", {name: OLD_ROUTES[name] for name, _ in DELIVERED}, delivered)
        ways = {way: [helpers.receiver_of(stack, task_id) for task_id in ids]
                for way, ids in _producer(stack, run.module, "ways", []).items()}
        run.expect("l06.check.delivered_ways", WAYS_RECEIVED, ways)


def declared_workers(path: Path):
    """`WORKERS` as the learner's file writes it (read, never run): a list of queue lists, or the reason it is not."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError) as error:
        return None, error
    assigned: list[ast.expr] = [
        node.value for node in tree.body
        if isinstance(node, ast.Assign) and any(isinstance(target, ast.Name) and target.id == "WORKERS"
                                                for target in node.targets)]
    assigned += [node.value for node in tree.body if isinstance(node, ast.AnnAssign) and node.value is not None
                 and isinstance(node.target, ast.Name) and node.target.id == "WORKERS"]
    assigned.sort(key=lambda value: value.lineno)  # the last assignment in the file wins, as when it runs
    if not assigned:
        return None, "WORKERS = ?"
    try:
        workers = ast.literal_eval(assigned[-1])
    except ValueError:
        return None, ast.unparse(assigned[-1])
    valid = (isinstance(workers, (list, tuple)) and 0 < len(workers) <= MAX_WORKERS
             and all(isinstance(queues, (list, tuple)) and queues and all(isinstance(q, str) and q for q in queues)
                     for queues in workers))
    return (workers, None) if valid else (None, repr(workers))


SECOND_WAVE = 5  # short tasks sent once the first export has finished, while the second one runs
# seconds between two of them: a worker running that export and free to reserve one (it also consumes their queue)
# gets one of them whichever worker the broker served first
SECOND_WAVE_STEP = 0.1
# at grading, the exports differ: the shorter one is an export all the same; it is sent first, and the second one is
# longer, so a short task that a worker running both exports reserves in the second wave waits 2.4 s or more
HIDDEN_LONGS = (1.5, 3.0)


#: Exports interrupted midway, after the peak: (seconds it lasts, seconds after it was received that its pool process
#: is SIGKILLed); the second one only at grading. RERUN_WAIT: how long the check then waits for it to run again, from
#: the moment the worker's main process saw its pool process die (LOST_WAIT at most: it can take seconds on a busy
#: machine, and only then does Celery retry or a failure handler send the export again).
INTERRUPTED = ((LONG, 0.5), (3.0, 1.2))
RERUN_WAIT = 3.0
LOST_WAIT = 20.0
RECEIVED = re.compile(r"Task l06\.long\[[^\]]+\] received")
LOST = "exited with 'signal 9"  # the main process's log line for a pool process that was SIGKILLed


def interrupted_export_runs(stack, route: str, seconds: float, after: float) -> int:
    """One export of `seconds` sent on `route`; `after` s once a worker received it, its pool process is SIGKILLed
    (the machine's OOM killer, a crash); how many times the workers received an export from then on, RERUN_WAIT s
    after the worker saw its process die (1: it does not run again: not redelivered, not retried, not sent again)."""
    def received() -> int:
        return sum(len(RECEIVED.findall(worker.logs)) for worker in stack.workers)

    for worker in stack.workers:  # every pool has its process: none is still replacing one
        worker.wait_pool_ready()
    before = received()
    result = stack.app.send_task("l06.long", (seconds,), queue=route)
    needle = f"[{result.id}] received"
    worker = polling.until(lambda: next((w for w in stack.workers if needle in w.logs), None), 10, step=0.05)
    if worker is None:
        return received() - before
    time.sleep(after)
    lost = worker.logs.count(LOST)
    worker.kill_child(0)
    polling.until(lambda: worker.logs.count(LOST) > lost or result.state not in ("PENDING", "STARTED"), LOST_WAIT,
                  step=0.1)
    time.sleep(RERUN_WAIT)
    return received() - before


#: A producer with the learner's module: a process of its own that imports it (as the API that sends the tasks does,
#: which never runs a worker or its signals), given on its standard input the (task name, arguments, keyword
#: arguments) asked. "route" prints the queue each goes to; "publish" sends each one and prints its task id; "ways"
#: sends an export and a reset each of the WAYS and prints {way: [their ids]}; "conf" prints task_routes (as
#: route_table writes it) and which of Celery's routing and sending code, or of the lesson's API, the answer
#: replaced (compared with what they were before it was imported). With a
#: backlog ({queue: count}), each queue first holds that many messages (in a key namespace of its own, which no
#: worker reads): routes that look at the queues' load see them busy. Given moments, the wall clock (elsewhere_clock)
#: is moved to the first before the answer is imported, and every case is asked again at each of them in turn.
PRODUCER = """
import importlib, json, sys, time
moments = json.loads(sys.argv[4])
if moments:  # one offset, moved from moment to moment: time.time and all that reads it follow
    from celerylab.stack.elsewhere_clock import shift_clock
    real_time, real_time_ns = time.time, time.time_ns
    offset = [moments[0] - real_time()]
    time.time = lambda: real_time() + offset[0]
    time.time_ns = lambda: real_time_ns() + int(offset[0] * 1e9)
    shift_clock(0)
from celery import Celery, Signature, Task
from celery.app import amqp as celery_amqp, routes as celery_routes
from celerylab.lessons.l06_architecture.helpers import route_table


def celery_code(app=None):  # Celery's own routing and sending code (given the app: as the answer left it)
    return {"Router.route": celery_routes.Router.route, "Router.query_router": celery_routes.Router.query_router,
            "Router.expand_destination": celery_routes.Router.expand_destination,
            "MapRoute.__call__": celery_routes.MapRoute.__call__, "routes.prepare": celery_routes.prepare,
            "AMQP.Router": celery_amqp.AMQP.Router, "Celery.send_task": type(app).send_task if app else Celery.send_task,
            "Task.apply_async": Task.apply_async, "Task.delay": Task.delay,
            "Signature.apply_async": Signature.apply_async}


CELERY_CODE = celery_code()  # before the answer runs
from celerylab.lessons.l06_architecture import web
VIEWS = [(route.path, route.endpoint) for route in web.api.routes]  # the lesson's API, as the lesson wrote it
module = importlib.import_module(sys.argv[1])
from celerylab.lessons.l06_architecture import tasks
app = getattr(module, "app", tasks.app)
mode, backlog, asked = sys.argv[2], json.loads(sys.argv[3]), json.load(sys.stdin)
if mode == "conf":  # how the routes are declared: task_routes itself, and which of Celery's code the answer replaced
    replaced = [key for key, code in celery_code(app).items() if code is not CELERY_CODE[key]]
    replaced += [f"{name}.{attr}" for name, _, _ in asked if name in app.tasks for attr in ("apply_async", "delay")
                 if getattr(type(app.tasks[name]), attr) is not CELERY_CODE["Task." + attr]]
    from celery.local import PromiseProxy, Proxy
    replaced += [f"{cls.__name__}.{attr}" for cls in (Proxy, PromiseProxy) for attr in ("apply_async", "delay")
                 if attr in vars(cls)]  # a task imported before the app is finalized is one of these
    if type(app.amqp.router) is not celery_routes.Router:
        replaced.append("app.amqp.router")
    if getattr(module, "api", None) is not web.api or [(r.path, r.endpoint) for r in web.api.routes] != VIEWS:
        replaced.append("api")  # the API the check serves is the lesson's, its views as they were
    print(json.dumps({"task_routes": route_table(app.conf.task_routes), "replaced": sorted(set(replaced))}))
    sys.exit(0)
with app.connection_for_write() as connection:
    for queue, count in backlog.items():
        waiting = connection.SimpleQueue(queue)
        for n in range(count):
            waiting.put({"backlog": n})
    try:
        if mode == "route":
            out = []
            for moment in moments or [None]:
                if moment is not None:
                    offset[0] = moment - real_time()
                out += [app.amqp.router.route({}, name, tuple(args), kwargs, app.tasks.get(name))["queue"].name
                        for name, args, kwargs in asked]
        elif mode == "ways":  # an export and a reset sent each way: [id of the export, id of the reset]
            import datetime
            from celery import chain, chord, group
            export, reset = app.tasks["report.export_grades"], app.tasks["email.send_password_reset"]
            soon = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=0.5)
            out = {}
            for way, options in (("countdown", {"countdown": 0.5}), ("eta", {"eta": soon}),
                                 ("priority", {"priority": 5}), ("expires", {"expires": 120})):
                out[way] = [export.apply_async(("2026-7", 0.01), **options).id,
                            reset.apply_async((f"{way}@example.com",), **options).id]
            welcome, pdf = app.tasks["email.send_welcome"], app.tasks["report.build_pdf"]
            last = chain(export.si("2026-7", 0.01), reset.si("chain@example.com"), welcome.si("chain@example.com", "Bia"),
                         pdf.si([7], "2026-7", 0.01)).apply_async()
            out["chain"] = [last.parent.parent.parent.id, last.parent.parent.id, last.parent.id, last.id]
            out["group"] = [r.id for r in group(export.si("2026-7", 0.01), reset.si("group@example.com")).apply_async()]
            body = chord([export.si("2026-7", 0.01)], reset.si("chord@example.com")).apply_async()
            out["chord"] = [body.parent.results[0].id, body.id]
            link = reset.si("link@example.com")
            link.freeze()
            out["link"] = [export.apply_async(("2026-7", 0.01), link=link).id, link.id]
        else:
            out = [app.send_task(name, tuple(args), kwargs).id for name, args, kwargs in asked]
    finally:
        for queue in backlog:
            connection.SimpleQueue(queue).clear()
print(json.dumps(out))
"""
BACKLOG = 20  # messages waiting in each queue when routes are asked under load
HIDDEN_BACKLOG = {"default": 200, "priority": 100, "heavy": 600}  # at grading, again with hundreds waiting
QUEUES = ("default", "priority", "heavy")


def _producer(stack, module: str, mode: str, asked: list[tuple], backlog: dict[str, int] | None = None,
              moments: tuple[float, ...] = ()) -> Any:
    """What the producer process printed for `asked` ((name, args) or (name, args, kwargs); in `mode`: a list, a dict
    in "conf" and "ways" modes); `backlog`:
    {queue: messages waiting in it}; `moments` (route mode): the wall clock times (epoch seconds) the routes are asked
    at, one after the other, the process's clock moved to the first before it imports the answer; none: now."""
    extra = {appconfig.NAMESPACE_ENV: f"{stack.namespace}backlog-"} if backlog else {}
    cases = [[name, list(args), dict(rest[0]) if rest else {}] for name, args, *rest in asked]
    argv = [sys.executable, "-c", PRODUCER, module, mode, json.dumps(backlog or {}), json.dumps(list(moments))]
    done = subprocess.run(argv, input=json.dumps(cases), capture_output=True, text=True, timeout=120,
                          env=stack.process_env(extra), cwd=stack.workdir)
    if done.returncode != 0:
        raise RuntimeError(f"a producer importing {module} failed: {done.stderr.strip()[-600:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


#: the ways the producer also sends an export and a password reset at the end, each received by the worker of its
#: queue: with a delivery option, in a canvas, and with a link; a chain's next step, a chord's callback and a link
#: are published by the worker, from inside the task that ran before them
WAYS = ("countdown", "eta", "priority", "expires", "chain", "group", "chord", "link")
# the worker each is received by: an export and a reset; the chain goes on to a welcome e-mail and a PDF report, each
# published by the pool process that ran the step before (the reset's, the e-mail's): the routes of the pool processes
WAYS_RECEIVED = {way: ["heavy", "priority"] + (["priority", "heavy"] if way == "chain" else []) for way in WAYS}
DECLARED = "{task: {'queue': queue}}"  # how the routes are declared: task_routes, a mapping by task name or pattern


def routes_declared(stack, module: str) -> dict:
    """How the answer declares its routes, in the producer process that imports it (as the API does) and in every
    worker: task_routes as a mapping of task names or patterns to {'queue': ...} (shown as DECLARED; a router
    function or class, or any other value, is shown as it is; so is a worker whose mapping is not the producer's),
    and the Celery routing or sending code it replaced (a Router, apply_async, delay, send_task of its own)."""
    names = list(OLD_ROUTES) + ["email.send_password_reset"]
    producer = _producer(stack, module, "conf", [(name, ()) for name in names])
    replies: dict = {}

    def all_answered() -> bool:  # a worker slow to answer on a busy machine is asked again
        replies.update(stack.app.control.inspect(timeout=3, limit=len(stack.workers)).conf(with_defaults=True) or {})
        return len(replies) >= len(stack.workers)

    polling.until(all_answered, 9, step=0)
    table = producer["task_routes"]
    mapping = isinstance(table, dict)
    workers = {name.removeprefix("celery@").split("@")[0]: helpers.route_table(conf.get("task_routes"))
               for name, conf in sorted(replies.items())}
    wrong = {name: routes for name, routes in workers.items() if not mapping or routes != table}
    return {"producer": DECLARED if mapping else table,
            "workers": wrong or (DECLARED if len(workers) == len(stack.workers) else f"{len(workers)} answered"),
            "replaced": producer["replaced"]}


def producer_routes(stack, module: str, asked: list[tuple[str, tuple]]) -> dict[tuple, str]:
    """{(name, args): queue} as a producer process that imports `module` routes each of `asked` (hashable args)."""
    return dict(zip(asked, _producer(stack, module, "route", asked)))


def producer_sends(stack, module: str, asked: list[tuple[str, tuple]]) -> list[str]:
    """The task ids of `asked`, each published by a producer process that imports `module`."""
    return _producer(stack, module, "publish", asked)


def peak_in_two_waves(stack, routes: dict[tuple, str], longs: tuple[float, ...], shorts: int) -> dict:
    """The peak, with the broker's unacknowledged messages sampled from the check's own connection all along: see
    _peak; also "acked_late", the long tasks whose message was still unacknowledged well after they started."""
    long_results = [stack.app.send_task("l06.long", (seconds,), queue=routes["l06.long", (seconds,)])
                    for seconds in longs]
    with UnackedSampler(stack.broker.url, [result.id for result in long_results]) as sampler:
        measured = _peak(stack, routes, long_results, shorts)
    acked_late = []
    for result, seconds in zip(long_results, longs):
        started = result.result if result.state == "SUCCESS" else None
        if isinstance(started, (int, float)) and sampler.held_while_running(result.id, started, seconds):
            acked_late.append(result.id)
    return {**measured, "acked_late": len(acked_late)}


DIRECT = -1  # the key of the short task sent straight to the default queue among the waits (its argument too)


def _peak(stack, routes: dict[tuple, str], long_results: list, shorts: int) -> dict:
    """The long tasks (`long_results`, sent together), then (once all were received) `shorts` short ones and one short
    sent straight to the default queue, and SECOND_WAVE more (SECOND_WAVE_STEP s apart) once the first long task has
    finished (the other still runs: a worker running it may still take short work), each to the queue its route
    names for its arguments (`routes`: {(name, args): queue}): each short task's wait (None if it never started in time),
    the one sent to default included (key DIRECT), every task's state, and the state of the one sent to default."""
    for result in long_results:
        helpers.received_by(stack, result, timeout=5)
    sent: dict[int, float] = {}
    results: dict = {}

    def wave(count: int, step: float = 0.0) -> None:
        for n in range(count):
            if n and step:
                time.sleep(step)
            i = len(results)
            sent[i] = time.time()
            results[i] = stack.app.send_task("l06.short", (i,), queue=routes["l06.short", (i,)])

    wave(shorts)
    direct_sent = time.time()
    direct = stack.app.send_task("l06.short", (DIRECT,), queue="default")  # a producer that names the default queue
    polling.until(lambda: any(result.ready() for result in long_results), 10 + 2 * LONG, step=0.05)
    time.sleep(0.2)  # the second long task has started by now
    wave(SECOND_WAVE, SECOND_WAVE_STEP)
    deadline = time.monotonic() + 10 + 2 * LONG  # one budget for all: a queue nobody consumes costs it once
    waits = {}
    for i, result in results.items():
        try:
            waits[i] = result.get(timeout=max(0.1, deadline - time.monotonic())) - sent[i]
        except Exception:
            waits[i] = None
    try:  # a short task like the others: its wait counts too (it returns when it started)
        waits[DIRECT] = direct.get(timeout=max(0.1, deadline - time.monotonic())) - direct_sent
    except Exception:
        waits[DIRECT] = None
    states = []
    for result in [*long_results, direct]:
        try:
            result.get(timeout=max(0.1, deadline - time.monotonic()))
        except Exception:
            pass
        states.append(result.state)
    return {"waits": waits, "long_states": states[:-1], "short_states": [result.state for result in results.values()],
            "direct_state": states[-1]}


@exercise("l06.no_starvation")
def no_starvation(run: CheckRun) -> None:
    shorts = 8 if run.include_hidden else SHORTS
    longs = HIDDEN_LONGS if run.include_hidden else (LONG, LONG)
    workers, problem = declared_workers(run.workdir / f"{run.module}.py")
    run.expect("l06.check.workers", f"<= {MAX_WORKERS}", problem if workers is None else len(workers),
               passed=workers is not None)
    if workers is None:
        return
    specs = [WorkerSpec(pool="prefork", concurrency=1, queues=tuple(queues), name=f"deploy-{i}")
             for i, queues in enumerate(workers, 1)]
    with run.stack(workers=specs, timeline=False) as stack:
        names = ["l06.long", "l06.short"]
        asked = specs[0].queues[0]
        # each task's route for the arguments it is sent with: a router may read them
        interrupts = INTERRUPTED if run.include_hidden else INTERRUPTED[:1]
        # each task's route for the arguments it is sent with, as a producer with the module computes it
        routes = producer_routes(stack, run.module, [*(("l06.long", (seconds,)) for seconds in
                                                        {*longs, *(seconds for seconds, _ in interrupts)}),
                                                      *(("l06.short", (i,)) for i in range(shorts + SECOND_WAVE))])
        acks_late = stack.app.send_task("l06.acks_late", (names,), queue=asked).get(timeout=10)
        # the main process of each worker decides when to acknowledge: its own reading too
        for name, late in main_process_acks_late(stack, names).items():
            acks_late[name] = acks_late.get(name) or late
        measured = peak_in_two_waves(stack, routes, longs, shorts)
        waits = [wait for wait in measured["waits"].values()]
        worst = None if None in waits else max(waits)
        run.expect("l06.check.short_wait", f"< {STARVE_LIMIT} s", "-" if worst is None else f"{worst:.2f} s",
                   passed=worst is not None and worst < STARVE_LIMIT)
        states = Counter(measured["long_states"] + measured["short_states"])
        run.expect("l06.check.all_done", f"{sum(states.values())} × SUCCESS",
                   ", ".join(f"{count} × {state}" for state, count in sorted(states.items())))
        run.expect("l06.check.default_direct", "SUCCESS", measured["direct_state"])
        run.expect("l06.check.acked_early", 0, measured["acked_late"])
        run.expect("l06.check.acks_late", {"l06.long": False, "l06.short": False}, acks_late)
        for number, (seconds, after) in enumerate(interrupts):
            runs = interrupted_export_runs(stack, routes["l06.long", (seconds,)], seconds, after)
            run.expect("l06.check.interrupted_once", 1, runs, hidden=number > 0, seconds=seconds, after=after)


def main_process_acks_late(stack, names: list[str]) -> dict[str, bool]:
    """Each task's acks_late as every worker's main process has it (``inspect registered``, answered there): True if
    any worker says True."""
    replies = stack.app.control.inspect(timeout=3, limit=len(stack.workers)).registered("acks_late") or {}
    late = {name: False for name in names}
    for lines in replies.values():
        for line in lines:
            name, _, info = line.partition(" [")
            if name in late and "acks_late=True" in info:
                late[name] = True
    return late


# Each chunk's index is its own id, as an import numbers its chunks: never its position in the chord.
CHUNKS = {3: [1, 2, 3], 8: [4, 5], 12: [6, -7, 8], 17: [9, 10, 11, 12]}
# Sent out of order (the statement asks for ascending indices), with a corrupt first and a corrupt last row, a
# corrupt chunk sent with index 0 (an index like any other: not a sentinel), one with two corrupt rows (one item in
# `failed` all the same) and an empty one (valid: 0 rows).
HIDDEN_CHUNKS = {52: [9], 50: [7, -8], 41: [2, 3], 0: [-4, 6], 40: [-1, -5, 5], 45: [4, 5, 6], 21: [], 7: [-3]}
# Sent at the same time as HIDDEN_CHUNKS, with other corrupt indices: each chord's result holds its own chunks only.
HIDDEN_BESIDE = {5: [1, 2], 33: [-2, -9], 2: [], 19: [3, -4, 5], 60: [8]}
CALLBACK_QUEUE = "consolidate"  # the callback runs on a worker of its own: it shares no process with any chunk
LATE_CHUNK = 2.0  # seconds one valid chunk of the first of two chords at once waits: the other chord closes first
IMPORT_SCHEMA = ["CREATE TABLE IF NOT EXISTS imported_rows (task_id TEXT, row_id INTEGER)"]  # import_rows' table
CALLBACK_WORKER = WorkerSpec(pool="prefork", concurrency=1, queues=(CALLBACK_QUEUE,), name="callback")


def corrupt(rows: list[int]) -> bool:
    """The statement's rule: a chunk holding any negative row id is corrupt (an empty chunk is not)."""
    return any(row < 0 for row in rows)


def expected(chunks: dict[int, list[int]]) -> dict:
    """The result the statement asks for: the rows of the valid chunks, and one index per corrupt chunk, ascending."""
    return {"imported": sum(len(rows) for rows in chunks.values() if not corrupt(rows)),
            "failed": sorted(index for index, rows in chunks.items() if corrupt(rows))}


def imported_by_chunk(stack, result, chunks: dict[int, list[int]]) -> dict[int, list[int]]:
    """Read from the check's own connection to the stack database: the rows each chunk's own task (the chord's
    header member sent with that index) wrote with import_rows, sorted."""
    members = dict(zip(chunks, (member.id for member in result.parent.results)))
    connection = stack.db()
    try:
        rows = execute(connection, "SELECT task_id, row_id FROM imported_rows").fetchall()
    finally:
        connection.close()
    return {index: sorted(row for task_id, row in rows if task_id == member) for index, member in members.items()}


def chunk_imports(chunks: dict[int, list[int]]) -> dict[int, list[int]]:
    """What each chunk's task must have imported: its rows if valid, none if corrupt."""
    return {index: [] if corrupt(rows) else sorted(rows) for index, rows in chunks.items()}


def start_chord(stack, chunks: dict[int, list[int]], late: int | None = None):
    """Send the chord; the chunk `late` (an index) only LATE_CHUNK seconds later: its chord then closes last."""
    header = [stack.app.signature("ex.import_chunk", (index, rows), countdown=LATE_CHUNK if index == late else None)
              for index, rows in chunks.items()]
    return chord(header, stack.app.signature("ex.consolidate", queue=CALLBACK_QUEUE)).apply_async()


def send_chord(stack, chunks: dict[int, list[int]]):
    result = start_chord(stack, chunks)
    result.get(timeout=20, propagate=False)
    return result


def chords_at_once(stack, *sets: dict[int, list[int]]) -> tuple[list, list]:
    """Every chord sent at once with no callback worker running, the first one closing last (one of its valid chunks
    starts LATE_CHUNK s later); that worker starts only once every chunk of every chord has finished (nothing it could
    have kept in memory while the chunks ran reaches it): each chord's result, and the rows each chord's chunk tasks
    had imported before that worker started."""
    for worker in [w for w in stack.workers if w.spec.queues == (CALLBACK_QUEUE,)]:
        worker.terminate()
    first, *others = sets
    late = next(index for index, rows in first.items() if rows and not corrupt(rows))
    results = [start_chord(stack, first, late), *(start_chord(stack, chunks) for chunks in others)]
    polling.until(lambda: all(result.parent.ready() for result in results), 30, step=0.1)
    imported = [imported_by_chunk(stack, result, chunks) for result, chunks in zip(results, sets)]
    stack.add_worker(replace(CALLBACK_WORKER, name="callback-late"))
    for result in results:
        result.get(timeout=20, propagate=False)
    return results, imported


@exercise("l06.chord_survives")
def chord_survives(run: CheckRun) -> None:
    workers = [WorkerSpec(pool="prefork", concurrency=2, name="chunks"), CALLBACK_WORKER]
    with run.stack(workers=workers, timeline=False, database=IMPORT_SCHEMA) as stack:
        broken = send_chord(stack, CHUNKS)
        run.expect_state("l06.check.chord_state", "SUCCESS", broken)
        run.expect("l06.check.chord_result", expected(CHUNKS), broken.result if broken.state == "SUCCESS" else None)
        clean = {index: rows for index, rows in CHUNKS.items() if not corrupt(rows)}
        whole = send_chord(stack, clean)
        run.expect("l06.check.chord_clean", expected(clean), whole.result if whole.state == "SUCCESS" else None)
        run.expect("l06.check.chunk_imports", chunk_imports(CHUNKS), imported_by_chunk(stack, broken, CHUNKS))
        if run.graded(3):
            sets = (HIDDEN_CHUNKS, HIDDEN_BESIDE)
            results, imported = chords_at_once(stack, *sets)
            for chunks, result in zip(sets, results):
                run.expect("l06.check.chord_result", expected(chunks),
                           result.result if result.state == "SUCCESS" else None, hidden=True)
            run.expect("l06.check.chunk_imports", [chunk_imports(chunks) for chunks in sets], imported, hidden=True)
