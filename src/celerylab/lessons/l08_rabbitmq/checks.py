"""Lesson 08's exercise checks: each runs the learner's module on virtual hosts of the process's private RabbitMQ node, behind a process manager."""
from __future__ import annotations

import contextlib
import dataclasses
import io
import re
import signal
import tempfile
import time
import tokenize
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime
from pathlib import Path

from kombu import Connection, Exchange, Queue

from celerylab.checks import CheckRun, exercise
from celerylab.i18n import t
from celerylab.lessons.l08_rabbitmq import check_node, check_worker_settings, helpers
from celerylab.lessons.l08_rabbitmq.check_prefetch import BrokerPrefetch
from celerylab.lessons.l08_rabbitmq.check_producer import reminder_producer
from celerylab.lessons.l08_rabbitmq.check_unacked import BrokerHeld
from celerylab.lessons.l08_rabbitmq.helpers import exited_at_start, start_failure
from celerylab.polling import until
from celerylab.stack import WorkerSpec, elsewhere, rabbitmq_node
from celerylab.stack.errors import StackError
from celerylab.stack.process import ManagedProcess

#: The ack timeout in every form a Celery worker logs it on RabbitMQ 3.10 (the channel closed with a 406): the
#: critical "Unrecoverable error: PreconditionFailed(406, ...)" of the default settings, the warning "Connection to
#: broker lost... (PreconditionFailed(406, ...))" of `broker_channel_error_retry=True` (the worker reconnects and
#: the message is delivered again), and the traceback's "PreconditionFailed: ... (406) PRECONDITION_FAILED - ...".
ACK_TIMEOUT = re.compile(r"PRECONDITION_FAILED - delivery acknowledgement[^'\"\n]*")


def say(key: str, **values) -> None:
    """One line of progress, in the page's language: a check of several seconds says what it is doing."""
    print(t(key, **values), flush=True)


def ack_timeout_line(worker) -> str:
    """The worker's line about RabbitMQ closing its channel for a late ack, in any form ("" if it never logged one)."""
    found = ACK_TIMEOUT.search(worker.logs())
    return found.group(0) if found else ""


@contextlib.contextmanager
def lab(run: CheckRun, consumer_timeout_ms: int, specs: list[WorkerSpec | tuple[WorkerSpec, ...]], added: int = 0):
    """One stack per item of `specs` (a worker's spec, or a tuple of them: one stack with those workers), each on a
    virtual host of its own on the process's node (started at the first check) with `consumer_timeout_ms`, its workers
    loading the learner's module behind a supervisor: [(host, stack, supervisor)]; None without RabbitMQ, or when a
    worker exited at start (a failed criterion says why). `added`: workers the check adds itself once they are up
    (counted in the progress line)."""
    if not expect_rabbitmq(run, rabbitmq_node.missing()):
        yield None
        return
    with check_node.virtual_hosts(consumer_timeout_ms, len(specs), say=say) as hosts, contextlib.ExitStack() as exits:
        say("l08.check.step.workers", count=added + sum(len(spec) if isinstance(spec, tuple) else 1 for spec in specs),
            hosts=len(specs))

        def start(host, spec):
            return run.stack(workers=list(spec) if isinstance(spec, tuple) else [spec], timeline=False, settings={"broker_url": host.url},
                             env={"CELERYLAB_RUNS": "{workdir}/runs.log", **APP_DATABASE})

        with ThreadPoolExecutor(max_workers=len(specs)) as pool:
            futures = [pool.submit(start, host, spec) for host, spec in zip(hosts, specs)]
        failed = None
        started = []
        for host, future in zip(hosts, futures):
            try:
                stack = exits.enter_context(future.result())
            except Exception as error:  # the others are stopped by `exits`; the first failure is the learner's
                failed = failed or error
                continue
            started.append((host, stack, exits.enter_context(helpers.Supervisor(stack))))
        if failed is not None and not exited_at_start(failed):
            raise failed
        if failed is not None:  # the learner's worker exited before it was ready: judged, not a crash of the check
            run.expect("l08.check.worker_started", True, False, cause=start_cause(failed))
            yield None
            return
        yield started


#: The app's database (`celerylab.appdb`) of every worker of a stack, the one on another machine included: the file a
#: worker in the stack's folder opens by default, named by its full path (a worker of `elsewhere.add_worker` runs in a
#: folder of its own, where the default would be a database of that machine only).
APP_DATABASE = {"CELERYLAB_DATABASE_URL": "sqlite:///{workdir}/celerylab.db"}

RABBITMQ_PROGRAMS = ("rabbitmq-server", "rabbitmqctl")


def expect_rabbitmq(run: CheckRun, absent: str) -> bool:
    """The node's programs are installed: expected both, observed those found (`absent`: the missing ones, ", "-joined;
    names only, read alike in every language)."""
    found = [name for name in RABBITMQ_PROGRAMS if name not in absent.split(", ")]
    return run.expect("l08.check.rabbitmq", ", ".join(RABBITMQ_PROGRAMS), ", ".join(found), passed=not absent)


def start_cause(error: BaseException) -> str | None:
    """Why the learner's worker exited at start, as its log says it (the last exception, else the last line): words of
    the worker, the same in every language, never the check's own message (rendered in this process's language, which
    may not be the learner's: the verdict's labels are recorded in each language, a cause only as given)."""
    tail = getattr(error, "log_tail", "") or ""
    found = start_failure(error) if helpers.EXCEPTION_LINE.search(tail) else None
    lines = [line.strip() for line in tail.splitlines() if line.strip()]
    return found or (lines[-1] if lines else None)


def at_once(*scenarios):
    """Run zero-argument callables side by side (each on its own stack): their results, in order."""
    with ThreadPoolExecutor(max_workers=len(scenarios)) as pool:
        return [future.result() for future in [pool.submit(scenario) for scenario in scenarios]]


def survived(run: CheckRun, stack, supervisor, hidden: bool = False, restarts: int = 0) -> None:
    """The two criteria every exercise shares: no ack timeout in the worker's log, no restart but the `restarts` the
    check caused itself (a worker it killed)."""
    line = ack_timeout_line(stack.workers[0])
    run.expect("l08.check.no_ack_timeout", True, not line, hidden=hidden, cause=line or None)
    run.expect("l08.check.restarts", restarts, supervisor.restarts, hidden=hidden)


def expect_fixed_worker(run: CheckRun, readings: list[dict | None]) -> None:
    """The worker runs as the statement fixes it (prefork, concurrency 1, default prefetch), as it answers `inspect
    stats` before and after the reports: a module that lowers the prefetch (or changes the pool) holds fewer messages
    than the check's worker would, and so hides a part held past the timeout behind the others."""
    run.expect("l08.check.worker_settings", check_worker_settings.FIXED, check_worker_settings.as_fixed(readings),
               **check_worker_settings.FIXED)


def parts(stack, label: str) -> list[tuple[int, float]]:
    """(part, seconds) of every part of report `label` the run log holds."""
    return [(int(line[1]), float(line[2])) for line in helpers.runs(stack, f"{label}:part")]


def logged_parts(stack, labels: list[str]) -> list[tuple[float, float]]:
    """(seconds, when it was logged) of every part of the reports `labels` the run log holds, in the order logged."""
    return sorted(((float(line[2]), float(line[-1])) for label in labels
                   for line in helpers.runs(stack, f"{label}:part")), key=lambda part: part[1])


WORK_SLACK = 0.05  # seconds a part may seem to start early: the run log's millisecond stamps, the clock's resolution


def parts_too_soon(found: list[tuple[float, float]], sent: float) -> int:
    """Parts logged sooner than their work allows: `crunch` logs a part `s` seconds after it began, and the worker
    (concurrency 1) runs one part at a time, so each part began after the reports were `sent` and after the part logged
    before it ended. A part logged sooner was not worked for its seconds (a line written without the work)."""
    too_soon, free_from = 0, sent
    for seconds, logged in found:
        if logged - seconds < free_from - WORK_SLACK:
            too_soon += 1
        free_from = max(free_from, logged)
    return too_soon


def expect_work_done(run: CheckRun, labels: list[str], found: list[tuple[float, float]], sent: float,
                     hidden: bool) -> None:
    """The reports' parts were worked for their seconds, one at a time: none logged sooner than its work allows."""
    run.expect("l08.check.work_done", 0, parts_too_soon(found, sent), hidden=hidden, label=", ".join(labels))


COST_WORDS = 3  # words of the shortest comment that can say what a design costs ("more messages per report")


def cost_comment(source: str) -> bool:
    """Whether the module's source holds a `#` comment of COST_WORDS words or more (a docstring is not a comment)."""
    comments = []
    try:
        for token in tokenize.generate_tokens(io.StringIO(source).readline):
            if token.type == tokenize.COMMENT:
                comments.append(token.string)
    except (tokenize.TokenError, SyntaxError):  # a module that does not parse: the comments read before its error
        pass
    return any(len(re.findall(r"[^\W\d_]+", comment)) >= COST_WORDS for comment in comments)


def expect_cost_comment(run: CheckRun) -> None:
    """The statement's last request: a comment saying what else the design costs (its content is read by a person)."""
    path = run.workdir / f"{run.module}.py"
    source = path.read_text(encoding="utf-8", errors="replace") if path.exists() else ""
    run.expect("l08.check.cost_comment", True, cost_comment(source), words=COST_WORDS, module=f"{run.module}.py")


def report_settled(found: list[tuple[int, float]], seconds: float) -> bool:
    """A report's parts cover its seconds, or a part was logged twice (its criterion has failed for good: a report run
    again after an ack timeout only adds more repeats)."""
    numbers = [number for number, _ in found]
    return len(numbers) != len(set(numbers)) or sum(s for _, s in found) >= seconds - COVERED_WITHIN


def report_looping(found: list[tuple[int, float]]) -> bool:
    """A part logged LOOPING times: the worker runs the same message again after every ack timeout, and the reports
    queued behind it never start (the check stops waiting for them)."""
    numbers = [number for number, _ in found]
    return any(numbers.count(number) >= LOOPING for number in set(numbers))


COVERED_WITHIN = 0.000001  # seconds the parts may miss a report's length by (the statement's precision): float sums,
                           # never a part (the shortest part a graded length leaves is 3 us: ex.report("xt", 2.000003)
                           # after whole parts of 0.5 s; a report of 0.0008 s is one part shorter than a ms)
LOOPING = 3  # times one part is logged that prove a loop: once is the run, twice may be one redelivery
#: The reports the check sends at once, each longer than the 3 s timeout: four, as many messages as the worker
#: prefetches by default (prefetch multiplier 4 x concurrency 1), so a part prefetched behind the other reports' parts
#: waits unacknowledged for three of them (parts of a third of the timeout are held past it: 3 s waiting, 1 s running).
REPORTS = [("a", 4.0), ("b", 4.0), ("c", 4.0), ("d", 4.0)]
#: At grading, lengths far past the example both ways, sent together: shorter than any sensible part, and over
#: twelve timeouts long with a fraction (a fixed number of parts, ten included, or whole seconds only, do not
#: cover both: ten parts of 37.3 s are 3.73 s each, past the 3 s timeout).
GRADED_REPORTS = [("e", 0.3), ("f", 37.3)]


def run_reports(stack, cases: list[tuple[str, float]]) -> tuple[list[tuple[list[tuple[int, float]], float]], float]:
    """Send every report at once and wait until each is settled (or one loops): [(its parts, its seconds)], and when
    they were sent."""
    sent = time.time()
    for label, seconds in cases:
        stack.app.send_task("ex.report", (label, seconds))
    total = sum(seconds for _, seconds in cases)
    settled = lambda: all(report_settled(parts(stack, label), seconds) for label, seconds in cases)  # noqa: E731
    looping = lambda: any(report_looping(parts(stack, label)) for label, _ in cases)  # noqa: E731
    until(lambda: settled() or looping(), total + 30, step=0.2)  # generous: it returns once settled or looping
    helpers.wait(0.5)  # a part still running when the last one was logged would log after it
    return [(parts(stack, label), seconds) for label, seconds in cases], sent


# A verdict's causes are not translated here: this process's language may not be the learner's (a grading job, a
# notebook watched in the other language), and a cause is recorded only as given. Whatever the learner must read in
# words is a criterion's label (recorded in each language); the observations are numbers, part numbers and log lines.


def repeated_parts(found: list[tuple[int, float]]) -> dict[int, int]:
    """{part number: times logged} of the parts logged more than once."""
    numbers = [number for number, _ in found]
    return {number: numbers.count(number) for number in sorted(set(numbers)) if numbers.count(number) > 1}


def covered(found: list[tuple[int, float]]) -> float:
    """Seconds of work the parts cover, each part number counted once (to the microsecond: float sums' noise out)."""
    return round(sum(dict(found).values()), 6)


def expect_parts(run: CheckRun, label: str, found: list[tuple[int, float]], seconds: float, hidden: bool) -> None:
    """Criterion 1, its first half: the report's parts cover its seconds (a part logged twice counts once)."""
    run.expect("l08.check.parts", seconds, covered(found), passed=abs(covered(found) - seconds) < COVERED_WITHIN,
               hidden=hidden, label=label, seconds=seconds)


TIMEOUT_S = 3.0  # the node's consumer_timeout: a part of that much work, acknowledged at its end, is held past it


def expect_parts_short(run: CheckRun, labels: list[str], reports: list[list[tuple[int, float]]], hidden: bool) -> None:
    """Criterion 2's other half: no part of the reports lasts the timeout or longer (the longest part logged)."""
    longest = max((seconds for found in reports for _, seconds in found), default=0.0)
    run.expect("l08.check.longest_part", f"< {TIMEOUT_S}", longest, passed=longest < TIMEOUT_S, hidden=hidden,
               label=", ".join(labels), timeout=TIMEOUT_S)


def expect_parts_once(run: CheckRun, reports: list[tuple[list[tuple[int, float]], str]], hidden: bool) -> None:
    """Criterion 1, its second half: no part of the reports (their parts, their label) logged more than once."""
    repeated = {label: repeated_parts(found) for found, label in reports if repeated_parts(found)}
    run.expect("l08.check.parts_repeated", {}, repeated, hidden=hidden,
               label=", ".join(label for _, label in reports))


@exercise("l08.long_report")
def long_report(run: CheckRun) -> None:
    graded = run.graded(len(GRADED_REPORTS) + 4)  # the parts of each graded report, repeats, work, two shared criteria
    more = more_stacks(run)
    spec = WorkerSpec(pool="prefork", concurrency=1, extra_args=("-I", STOP_LINE))
    with lab(run, 3000, [spec] * ((4 if graded else 3) + more)) as started:
        if started is None:
            return
        (host, stack, supervisor), (killed_host, killed_stack, _), (_, crash_stack, _) = started[:3]
        runs_with = [check_worker_settings.runs_with(stack)]  # before the reports: no task can have changed it yet
        say("l08.check.step.reports")
        scenarios = [lambda: reports_then_more(stack), lambda: killed_mid_report(killed_host, killed_stack),
                     lambda: crashed_at_points(crash_stack)]
        if graded:
            scenarios.append(lambda: run_reports(started[3][1], GRADED_REPORTS))
        if more:
            scenarios.extend(more_scenarios(started[-more:]))
        with BrokerPrefetch(host, Path(stack.workdir) / "prefetch") as prefetch:
            results = at_once(*scenarios)
        (reports, sent), same, resent, first = results[0]
        for (label, _), (found, seconds) in zip(REPORTS, reports):
            expect_parts(run, label, found, seconds, hidden=False)
        expect_parts_once(run, [(found, label) for (label, _), (found, _) in zip(REPORTS, reports)], hidden=False)
        labels = [label for label, _ in REPORTS]
        expect_work_done(run, labels, logged_parts(stack, labels), sent, hidden=False)
        expect_parts_short(run, labels, [found for found, _ in reports], hidden=False)
        expect_same_label(run, SAME_LABEL, same, hidden=False)
        expect_resent(run, RESENT, resent[0], resent[1], hidden=False)
        expect_killed(run, ("first",) + FIRST, first[1], first[0])
        survived(run, stack, supervisor, restarts=1)
        expect_fixed_worker(run, runs_with + [check_worker_settings.runs_with(stack)])
        run.expect("l08.check.broker_prefetch", check_worker_settings.FIXED["prefetch_count"], prefetch.lowest())
        kills, killed_sent = results[1]
        for kill, (left, found) in zip(KILLS, kills):
            expect_killed(run, kill, found, left)
        labels = [label for _, label, _ in KILLS]
        expect_work_done(run, labels, logged_parts(killed_stack, labels), killed_sent, hidden=False)
        for (whom, label, seconds, _), (left, found) in zip(CRASH_POINTS, results[2]):
            if label in SAME_LABEL_BEHIND:
                expect_killed_idle(run, (whom, label, seconds, SAME_LABEL_BEHIND[label]), found, left)
            else:
                expect_killed(run, (whom, label, seconds), found, left)
        if graded:
            reports, sent = results[3]
            for (label, _), (found, seconds) in zip(GRADED_REPORTS, reports):
                expect_parts(run, label, found, seconds, hidden=True)
            expect_parts_once(run, [(found, label) for (label, _), (found, _) in zip(GRADED_REPORTS, reports)],
                              hidden=True)
            labels = [label for label, _ in GRADED_REPORTS]
            expect_work_done(run, labels, logged_parts(started[3][1], labels), sent, hidden=True)
            survived(run, started[3][1], started[3][2], hidden=True)
        if more:
            expect_more(run, started[-more:], results[-more:])
    expect_cost_comment(run)


#: The reports of the kill scenario, one after the other on the second worker, each with what the check SIGKILLs once
#: its second part is logged: "worker", the worker and its children (its process manager starts it again), then
#: "child", only the pool process running the part (the worker stays up and starts another: what the OOM killer does).
#: The cost the statement accepts is redoing a part; each report long enough that, with 1 s parts, three parts remain
#: behind the one the kill interrupts.
#: Then "window": the worker's main process frozen (SIGSTOP) once the second part is logged, so that no part finished
#: after that is acknowledged, and the worker and its children SIGKILLed the moment the broker holds two messages of
#: the report (a part's message not acknowledged yet, and the one published after it): a crash between a part's
#: publish of the next and its ack, a window of microseconds a kill from outside practically never hits.
KILLS = (("worker", "k", 6.0), ("child", "j", 6.0), ("window", "w", 6.0))
KILL_AFTER = 0.2     # seconds after the second part is logged: the next part is running, the logged ones acknowledged
WINDOW_WITHIN = 10.0  # seconds the frozen worker's pool process has to end its part and publish the next (parts are
                      # shorter than the 3 s timeout; each broker reading boots a CLI, seconds at load)


def report_messages(host) -> int | None:
    """Messages (ready and unacknowledged) the broker holds in `host`'s virtual host's task queues, the workers' own
    queues (remote control, events) left out; None if the node did not answer."""
    counts = helpers.messages(host, host.name, timeout=60)
    if not counts:
        return None
    return sum(count for name, count in counts.items() if "pidbox" not in name and not name.startswith("celeryev"))


def kill_in_window(host, worker) -> None:
    """Freeze the worker's main process (its pool process runs on: the part it runs ends, and what the task publishes
    reaches the broker, but no ack leaves the worker), wait until the broker holds two messages of the report (the
    running part's, unacknowledged, and the next one's) or WINDOW_WITHIN s, then SIGKILL the worker and its children."""
    ManagedProcess.kill(worker, signal.SIGSTOP)
    until(lambda: (report_messages(host) or 0) >= 2, WINDOW_WITHIN, step=0.1)
    worker.kill(group=True)


def kill_mid_report(host, stack, kill: str, label: str, seconds: float) -> float | None:
    """On its own stack: report `label`, SIGKILLed (the worker and its children, or only its pool process: `kill`)
    KILL_AFTER s after its second part is logged; the seconds of work its parts logged after the kill (0: the report was
    over before it, and the kill tested nothing), None if it never logged two parts (or had no pool process to kill).

    The second, not the first: a report whose progress lives in the pool process's memory starts over after the kill,
    which after one part looks like the one part the statement allows to redo; and parts must remain behind the
    interrupted one: a part that publishes the next before it runs publishes it again when it is run again."""
    stack.app.send_task("ex.report", (label, seconds))
    if not until(lambda: len({number for number, _ in parts(stack, label)}) >= 2, seconds + 20, step=0.05):
        return None
    worker = stack.workers[0]
    if kill == "window":
        kill_in_window(host, worker)
        killed_at = time.time()
    elif kill == "worker":
        helpers.wait(KILL_AFTER)
        killed_at = time.time()
        worker.kill(group=True)
    else:
        helpers.wait(KILL_AFTER)
        killed_at = time.time()
        try:
            worker.kill_child(0)
        except StackError:  # no pool process to kill (or it would not die): the kill tested nothing
            return None
    until(lambda: covered(parts(stack, label)) >= seconds - 0.01, seconds + 30, step=0.2)
    helpers.wait(1.5)  # a part run again would log behind the last one
    return round(sum(s for s, at in logged_parts(stack, [label]) if at > killed_at), 2)


def killed_mid_report(host, stack) -> tuple[list[tuple[float | None, list[tuple[int, float]]]], float]:
    """Every report of KILLS on `stack` (on virtual host `host`), one after the other: [(seconds logged after its kill,
    its parts)], and when the first was sent."""
    sent = time.time()
    kills = []
    for kill, label, seconds in KILLS:
        left = kill_mid_report(host, stack, kill, label, seconds)
        kills.append((left, parts(stack, label)))
    return kills, sent


def expect_killed(run: CheckRun, kill: tuple[str, str, float], found: list[tuple[int, float]], left: float | None,
                  hidden: bool = False) -> None:
    """Criteria 4 and 5 (`kill`: how, the report's label and seconds; `whom` names the criteria): the kill landed
    mid-report (work was logged after it: `left` s), the report's parts still cover its seconds, and at most one part
    (the one the kill interrupted) is logged again: a crash costs redoing the running part, not losing work nor
    redoing the report. Hidden: a graded input of the same criteria (a move to another machine)."""
    whom, label, seconds = kill
    values = {"label": label, "seconds": seconds}
    run.expect(f"l08.check.{whom}_kill_landed", "> 0", left, passed=left is not None and left > 0, hidden=hidden,
               **values)
    run.expect(f"l08.check.{whom}_killed_parts", seconds, covered(found), passed=abs(covered(found) - seconds) < 0.01,
               hidden=hidden, **values)
    redone = sum(times - 1 for times in repeated_parts(found).values())
    run.expect(f"l08.check.{whom}_killed_redone", "<= 1", redone, passed=redone <= 1, hidden=hidden, **values)


#: Once REPORTS are over, on the same worker: two reports with one label sent at once (each must run whole: a report
#: is not known by its label), with RESENT, a length that leaves less than a millisecond after whole parts (the
#: parts add up to it to COVERED_WITHIN); once RESENT is over, the same report sent again (a report already done is
#: not known by its label and seconds either: it runs whole again); then FIRST, its worker and children SIGKILLed as
#: soon as its first part is logged, the process that logged it stopped right there by the stop file
#: (`check_stop_line`): the part not marked done, nothing sent after it, its message not acknowledged.
SAME_LABEL = [("s", 1.5), ("s", 2.5)]
RESENT = ("t", 1.0009)
FIRST = ("r", 3.0)
#: The workers of the long report and poison checks load this module: it stops the process that logs the line a stop
#: file next to the run log names (STOP_FILE; the module's `stop_file`, not imported here: importing it wraps the log).
STOP_LINE = "celerylab.lessons.l08_rabbitmq.check_stop_line"
STOP_FILE = "runs.log.stop"
STOPPED_FILE = "runs.log.stopped"  # the hook writes the pid of the process it stops there, right before the stop
VIRTUAL_FILE = "runs.log.virtual"  # the reports whose waits the hook makes virtual (their parts logged at once)
FROZEN_WITHIN = 2.0  # seconds the process that logged the part has to take the stop file (it does so right after)
AFTER_LAST = 10.0    # seconds past its work that a report (or a set sent together) may take to be over


def reports_then_more(stack) -> tuple:
    """REPORTS (as `run_reports`), then SAME_LABEL with RESENT (`same_label_and_resent`), then FIRST
    (`killed_after_first_part`, the worker's process manager starting it again)."""
    reports = run_reports(stack, REPORTS)
    same, resent = same_label_and_resent(stack, SAME_LABEL, RESENT)

    def kill() -> float:
        stack.workers[0].kill(group=True)
        return time.time()

    return reports, same, resent, killed_after_first_part(stack, *FIRST, kill)


def work_logged(stack, label: str, after: float = 0.0) -> float:
    """Seconds of work of every part of `label` logged after `after` (a Unix time), each line counted."""
    return round(sum(seconds for seconds, at in logged_parts(stack, [label]) if at > after), 6)


def same_label_and_resent(stack, same: list[tuple[str, float]], resent: tuple[str, float]) -> tuple:
    """`same` (reports of one label) and `resent` sent at once and waited for, then `resent` sent again: the seconds
    of work logged by `same`'s label, and `resent`'s (parts of its first run, parts logged after it was sent again)."""
    label, total = same[0][0], round(sum(seconds for _, seconds in same), 6)
    again_label, again = resent
    for case in same + [resent]:
        stack.app.send_task("ex.report", case)
    until(lambda: work_logged(stack, label) >= total - COVERED_WITHIN
          and covered(parts(stack, again_label)) >= again - COVERED_WITHIN, total + again + AFTER_LAST, step=0.1)
    helpers.wait(0.5)  # a part still running when the last one was logged would log after it
    first_run = parts(stack, again_label)
    sent = time.time()
    stack.app.send_task("ex.report", resent)
    until(lambda: covered(parts_after(stack, again_label, sent)) >= again - COVERED_WITHIN, again + AFTER_LAST,
          step=0.1)
    helpers.wait(0.5)
    return work_logged(stack, label), (first_run, parts_after(stack, again_label, sent))


def parts_after(stack, label: str, after: float) -> list[tuple[int, float]]:
    """(part, seconds) of the parts of `label` logged after `after` (a Unix time)."""
    return [(int(line[1]), float(line[2])) for line in helpers.runs(stack, f"{label}:part") if float(line[-1]) > after]


def expect_same_label(run: CheckRun, same: list[tuple[str, float]], logged: float, hidden: bool) -> None:
    """Reports of one label sent at once each ran whole: their label's parts add up to all their seconds."""
    total = round(sum(seconds for _, seconds in same), 6)
    run.expect("l08.check.same_label_parts", total, logged, passed=abs(logged - total) < COVERED_WITHIN * len(same),
               hidden=hidden, label=same[0][0], seconds=total,
               reports=", ".join(f'ex.report("{label}", {seconds})' for label, seconds in same))


def expect_resent(run: CheckRun, resent: tuple[str, float], first_run: list[tuple[int, float]],
                  again: list[tuple[int, float]], hidden: bool) -> None:
    """A report sent again once it was over ran whole again (its first run judged as any report's, when given)."""
    label, seconds = resent
    if first_run is not None:
        expect_parts(run, label, first_run, seconds, hidden=hidden)
    run.expect("l08.check.resent_parts", seconds, covered(again), passed=abs(covered(again) - seconds) < COVERED_WITHIN,
               hidden=hidden, label=label, seconds=seconds)


#: Criterion 4's crash at points all over a report, on a stack of its own, one report after the other: the process
#: that runs it stopped there by the hook (`check_stop_line`; the stop file's text, last), then the worker and its
#: children SIGKILLed (the process manager starts it again): right after its third part is logged (not marked done,
#: nothing sent after it, its message not acked); right after its last part; its second part done, right before the
#: next message it publishes leaves; its first part done and the next message published, before its ack; in
#: `ex.report`'s own task, before it sends anything; and once it returned (what it sends sent), before its ack, with
#: SAME_LABEL_BEHIND sent right behind it: no part was running then, and no work may be redone (a report that, once
#: over, deletes the marks of its label's reports finds its own copies, or the other's, with no mark left).
CRASH_POINTS = (("third", "p3", 3.0, "p3:part 3"), ("last", "pz", 3.0, "pz:part =3.0"),
                ("send_before", "pb", 3.0, "pb:part 2 send_before"), ("send_after", "pa", 3.0, "pa:part 1 send_after"),
                ("entry_start", "ea", 2.0, "task:ex.report:ea 1 start"), ("entry_end", "ee", 2.0, "task:ex.report:ee 1 end"))
SAME_LABEL_BEHIND = {"ee": 1.0}


def crash_at(stack, label: str, seconds: float, stop_text: str) -> tuple:
    """Report `label` sent with a stop file of `stop_text`: once the process running it stopped there, the worker
    and its children SIGKILLed (also when it never stopped, once the report had its time: no process left armed). The
    seconds of work logged after the kill (None: it never stopped there) and the report's parts."""
    stop, stopped = Path(stack.workdir) / STOP_FILE, Path(stack.workdir) / STOPPED_FILE
    stopped.unlink(missing_ok=True)
    stop.write_text(stop_text, encoding="utf-8")
    behind = SAME_LABEL_BEHIND.get(label, 0.0)
    try:
        stack.app.send_task("ex.report", (label, seconds))
        if behind:
            stack.app.send_task("ex.report", (label, behind))
        seconds += behind  # the label's work
        froze = until(stopped.exists, seconds + AFTER_LAST, step=0.02)
        killed = time.time()
        stack.workers[0].kill(group=True)
    finally:
        stop.unlink(missing_ok=True)  # never stop a later report
        stopped.unlink(missing_ok=True)
    if not froze:
        return None, parts(stack, label)
    until(lambda: covered(parts(stack, label)) >= seconds - 0.01 and work_logged(stack, label, killed) > 0,
          seconds + 40, step=0.2)
    helpers.wait(1.5)  # a part run again would log behind the last one
    return work_logged(stack, label, killed), parts(stack, label)


def crashed_at_points(stack) -> list[tuple]:
    """Every report of CRASH_POINTS on `stack`, one after the other (`crash_at`)."""
    return [crash_at(stack, label, seconds, stop_text) for _, label, seconds, stop_text in CRASH_POINTS]


def expect_killed_idle(run: CheckRun, kill: tuple[str, str, float, float], found: list[tuple[int, float]],
                       left: float | None) -> None:
    """Criterion 4 for a crash with no part running (`kill`: its name, the label, the seconds of the report the crash
    hit and of the one of the same label sent behind it): the kill landed, and the label's parts, every line counted,
    add up to both reports' seconds: nothing lost, nothing redone."""
    whom, label, seconds, behind = kill
    values = {"label": label, "seconds": seconds, "behind": behind}
    total, logged = round(seconds + behind, 6), round(sum(part for _, part in found), 6)
    run.expect(f"l08.check.{whom}_kill_landed", "> 0", left, passed=left is not None and left > 0, **values)
    run.expect(f"l08.check.{whom}_killed_parts", total, logged, passed=abs(logged - total) < 0.01, **values)


def killed_after_first_part(stack, label: str, seconds: float, kill) -> tuple:
    """Report `label` sent with a stop file naming it: once its first part is logged (the process that logged it
    stopped right there), `kill()` (it returns when it killed). The seconds of work logged after the kill (None: no
    part was ever logged, and nothing was killed) and the report's parts."""
    stop = Path(stack.workdir) / STOP_FILE
    stop.write_text(f"{label}:part", encoding="utf-8")
    try:
        stack.app.send_task("ex.report", (label, seconds))
        if not until(lambda: parts(stack, label), seconds + AFTER_LAST, step=0.02):
            return None, parts(stack, label)
        until(lambda: not stop.exists(), FROZEN_WITHIN, step=0.02)
        killed = kill()
    finally:
        stop.unlink(missing_ok=True)  # never stop a later part
    until(lambda: covered(parts(stack, label)) >= seconds - 0.01, seconds + 40, step=0.2)
    helpers.wait(1.5)  # a part run again would log behind the last one
    return work_logged(stack, label, killed), parts(stack, label)


#: At grading, more inputs of criteria 1 to 4, on stacks of their own (`more_scenarios`, judged by `expect_more`):
#: reports just under the timeout sent together (a report run in one go waits prefetched behind the others, held past
#: the timeout), lengths that are no multiple of a tenth of a second, lengths that leave a few ms after whole parts of
#: any usual size, or less than a millisecond after them, or less than a millisecond in all (a last part too short to be
#: worth a message is still work to log); then reports of one label at once and a resent one (GRADED_SAME_LABEL,
#: GRADED_RESENT: as SAME_LABEL and RESENT), then a report far longer than any other
#: (`LONGEST`: watched LONGEST_WATCH s, never to its end: a part as long as the timeout closes the channel by then).
MORE_REPORTS = [("g", 2.9), ("h", 2.9), ("i", 2.9), ("n", 2.25), ("m", 0.05), ("o", 4.01), ("p", 6.003),
                ("u", 0.0008), ("x", 2.0009), ("xx", 1.0002), ("xt", 2.000003)]
GRADED_SAME_LABEL = [("y", 0.7), ("y", 3.3), ("y", 0.0008)]
GRADED_RESENT = ("ur", 0.0008)
LONGEST = ("z", 300.0)
LONGEST_WATCH = 10.0  # seconds it is watched (criteria 2 and 3) in real time, before its waits turn virtual
LONGEST_WITHIN = 120.0  # seconds its virtual parts (logged without their waits) have to cover it
LONGEST_STALLED = 8.0  # seconds with no new part of it that end the wait (a report cut short logs nothing more)
#: ... and criterion 5's crash between a part's end and its ack (`MOVED_WINDOW`), then criterion 4's (`MOVED`), each
#: with the killed worker's place taken by a worker on another machine (a /tmp of its own, where bwrap runs:
#: `elsewhere.add_worker`): a part done, and remembered only on the machine that died, is redelivered to one that
#: never saw it, and run again with all it publishes. Then, once MOVED is over, the same label sent again with AGAIN s;
#: then FIRST's crash right after the first part (`MOVED_FIRST`), the worker replaced by one on another machine too.
MOVED_WINDOW = ("v", 6.0)
MOVED = ("q", 6.0)
AGAIN = 2.0
MOVED_FIRST = ("l", 4.0)
MORE_CRITERIA = len(MORE_REPORTS) + 4 + 3 + 10 + 3  # parts of each, repeats, their work, the two shared criteria; one
                                                    # label at once, the resent one (2); the three moves (3 each), the
                                                    # resend; LONGEST's parts, repeats and longest part


def more_stacks(run: CheckRun) -> int:
    """How many stacks the graded inputs below need (none before grading)."""
    return 2 if run.graded(MORE_CRITERIA) else 0


def more_scenarios(started) -> list:
    """The scenarios of the graded inputs, one per stack of `started` (as `lab` yields them)."""
    return [lambda: short_then_longest(started[0][1]), lambda: moved_mid_report(started[1][0], started[1][1])]


def short_then_longest(stack) -> tuple:
    """MORE_REPORTS sent at once and waited for (as `run_reports`), GRADED_SAME_LABEL with GRADED_RESENT (as
    `same_label_and_resent`), then LONGEST sent and watched LONGEST_WATCH s; then its waits made virtual (the hook in
    the worker, `check_stop_line`: its parts logged without their seconds passing) until its parts cover it: its parts."""
    reports, sent = run_reports(stack, MORE_REPORTS)
    same, resent = same_label_and_resent(stack, GRADED_SAME_LABEL, GRADED_RESENT)
    label, seconds = LONGEST
    stack.app.send_task("ex.report", LONGEST)
    helpers.wait(LONGEST_WATCH)
    (Path(stack.workdir) / VIRTUAL_FILE).write_text(label, encoding="utf-8")
    seen = {"parts": -1, "at": time.time()}

    def over() -> bool:
        found = parts(stack, label)
        if len(found) != seen["parts"]:
            seen.update(parts=len(found), at=time.time())
        return report_settled(found, seconds) or time.time() - seen["at"] > LONGEST_STALLED

    until(over, LONGEST_WITHIN, step=0.5)
    helpers.wait(0.5)
    return (reports, sent), same, resent, parts(stack, label)


def moved(stack, before: set[str], kill) -> float:
    """Take the stack's worker from the process manager, `kill(worker)` it (this machine is gone) and start a worker
    on another machine in its place (nothing written since `before` there): when it was killed."""
    old = stack.workers[0]
    stack.workers.remove(old)  # out of the process manager's sight: this machine is gone
    kill(old)
    killed = time.time()
    elsewhere.add_worker(stack, old.spec, before=before)
    return killed


def moved_in_window(host, stack, before: set[str]) -> tuple:
    """Report MOVED_WINDOW, its worker killed as `kill_in_window` does once its second part is logged, and replaced
    by one on another machine: the seconds of work logged after the kill (None: two parts were never logged) and the
    report's parts."""
    label, seconds = MOVED_WINDOW
    stack.app.send_task("ex.report", (label, seconds))
    if not until(lambda: len({number for number, _ in parts(stack, label)}) >= 2, seconds + 20, step=0.05):
        return None, parts(stack, label)
    killed = moved(stack, before, lambda worker: kill_in_window(host, worker))
    until(lambda: covered(parts(stack, label)) >= seconds - 0.01, seconds + 40, step=0.2)
    helpers.wait(1.5)  # a part run again would log behind the last one
    return round(sum(s for s, at in logged_parts(stack, [label]) if at > killed), 2), parts(stack, label)


def moved_mid_report(host, stack) -> tuple:
    """MOVED_WINDOW (`moved_in_window`), then report MOVED: KILL_AFTER s after its second part is logged its worker is
    taken from the process manager and SIGKILLed, and a worker on another machine takes its place; once the report
    is over, it is sent again with AGAIN s; then MOVED_FIRST (`killed_after_first_part`, the worker moved). The window
    move's (seconds after the kill, parts), then MOVED's seconds of work logged after the kill (None: two parts were
    never logged), its parts by then, the parts logged after the resend, and MOVED_FIRST's (seconds after the kill,
    parts)."""
    before = elsewhere.private_entries(stack)
    window = moved_in_window(host, stack, before)
    label, seconds = MOVED
    stack.app.send_task("ex.report", (label, seconds))
    logged = until(lambda: len({number for number, _ in parts(stack, label)}) >= 2, seconds + 20, step=0.05)
    if not logged:
        return window, None, parts(stack, label), [], moved_first(stack, before)
    helpers.wait(KILL_AFTER)
    killed = moved(stack, before, lambda worker: worker.kill(group=True))
    until(lambda: sum(dict(parts(stack, label)).values()) >= seconds - 0.01, seconds + 40, step=0.2)
    helpers.wait(1.5)  # a part run again would log behind the last one
    found = parts(stack, label)
    resent = time.time()
    left = sum(part for part, at in logged_parts(stack, [label]) if killed < at <= resent)
    stack.app.send_task("ex.report", (label, AGAIN))
    until(lambda: sum(s for s, at in logged_parts(stack, [label]) if at > resent) >= AGAIN - 0.01, AGAIN + 20, step=0.2)
    helpers.wait(1.0)
    again = parts_after(stack, label, resent)
    return window, left, found, again, moved_first(stack, before)


def moved_first(stack, before: set[str]) -> tuple:
    """MOVED_FIRST, its worker killed right after its first part and replaced by one on another machine."""
    return killed_after_first_part(stack, *MOVED_FIRST,
                                   lambda: moved(stack, before, lambda worker: worker.kill(group=True)))


def expect_more(run: CheckRun, started, results) -> None:
    """The graded inputs' criteria (hidden: the same keys as the visible ones; the move judged as criterion 4's kill)."""
    ((reports, sent), same, resent, longest), (window, left, found, again, first) = results
    _, stack, supervisor = started[0]
    for (label, _), (report, seconds) in zip(MORE_REPORTS, reports):
        expect_parts(run, label, report, seconds, hidden=True)
    expect_parts_once(run, [(report, label) for (label, _), (report, _) in zip(MORE_REPORTS, reports)], hidden=True)
    labels = [label for label, _ in MORE_REPORTS]
    expect_work_done(run, labels, logged_parts(stack, labels), sent, hidden=True)
    expect_same_label(run, GRADED_SAME_LABEL, same, hidden=True)
    expect_resent(run, GRADED_RESENT, resent[0], resent[1], hidden=True)
    expect_parts(run, LONGEST[0], longest, LONGEST[1], hidden=True)
    expect_parts_once(run, [(longest, LONGEST[0])], hidden=True)
    expect_parts_short(run, [LONGEST[0]], [longest], hidden=True)
    survived(run, stack, supervisor, hidden=True)
    expect_killed(run, ("window",) + MOVED_WINDOW, window[1], window[0], hidden=True)
    expect_killed(run, ("worker",) + MOVED, found, left, hidden=True)
    expect_parts(run, MOVED[0], again, AGAIN, hidden=True)
    expect_killed(run, ("first",) + MOVED_FIRST, first[1], first[0], hidden=True)


#: The reminders the check schedules on one worker, the one due later first: one due sooner must not wait behind it
#: (a classic queue lets a message whose own TTL has passed go only from its head).
REMINDERS = [("r1", 9), ("r2", 3)]
#: At grading, countdowns past the example both ways, again the longer first: longer than the example's
#: longer one, and under the timeout (held, it would not close the channel).
GRADED_REMINDERS = [("r3", 11), ("r4", 2)]
BROKER_SAMPLES_AT_MOST = 120.0  # seconds the node samples unacknowledged deliveries if the check never stops it
PRODUCED_WITHIN = 10.0  # seconds the producer may take to publish its reminder (one that fails never logs it)
HELD_FROM = 1.0      # seconds after the sends from which the worker is asked what it holds (l08.remind_later has run)
EARLY = 0.5          # seconds before it is due that a reminder may reach the worker (clocks, the delay levels' rounding)
KILL_AFTER_RUN = 0.3  # seconds after the reminder due first has run that the worker and its children are SIGKILLed,
                     # the other still to come: a reminder in one process's memory (a timer, a sleep) is lost
SCHEDULER = "l08.remind_later"  # the one task the worker may receive or hold before a reminder is due


def reminders_held(stack) -> int | None:
    """Tasks other than l08.remind_later the stack's worker holds (`inspect scheduled`, `reserved` and `active`):
    a reminder, under whatever name carries it; None if it did not answer."""
    hostnames = [worker.hostname for worker in stack.workers]
    inspect = stack.app.control.inspect(destination=hostnames, timeout=1.0, limit=len(hostnames))
    answers = [inspect.scheduled(), inspect.reserved(), inspect.active()]
    if not any(answers):
        return None
    held = 0
    for answer in answers:
        for tasks in (answer or {}).values():
            held += sum(1 for task in tasks if (task.get("request", task)).get("name") != SCHEDULER)
    return held


RECEIVED_TASK = re.compile(r"\[(\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}): \w+/MainProcess\] Task ([\w.:-]+)\[([^\]]+)\] received")


def received_early(log: str, dues: list[float]) -> int:
    """Tasks other than l08.remind_later the worker's log shows received before their turn: the n-th one received
    before the n-th reminder (by due time, a Unix time) is due, less EARLY. Each is a reminder held in the worker's
    memory from then on, whatever its name and whether the worker answers `inspect` or not (a loaded worker may not
    answer in time; its log does not lie). A task is judged by its first receipt: the same task id received again is
    a redelivery (after a crash), which ran_once judges, not a reminder taken before its turn."""
    first: dict[str, float] = {}
    for found, name, task_id in RECEIVED_TASK.findall(log):
        if name != SCHEDULER and task_id not in first:  # the worker logs local time
            first[task_id] = datetime.strptime(found, "%Y-%m-%d %H:%M:%S,%f").timestamp()
    stamps = sorted(first.values())
    ordered = sorted(dues)
    return sum(1 for index, stamp in enumerate(stamps) if stamp < ordered[min(index, len(ordered) - 1)] - EARLY)


def remind(host, stack, cases: list[tuple[str, int]]) -> dict:
    """On its own stack: l08.remind_later for each case, in order, the first one run by a producer process of its own
    (not a worker) that is SIGKILLed as soon as the call returned, the next sent once it has published; once the
    reminder due first has run, the worker and its children SIGKILLed (its process manager starts it again); what the worker held until the first was due (as it answers, as its log shows, and as the
    broker counts its unacknowledged deliveries), when each was due, and when and how often each reminder ran."""
    # the node samples from before the producer starts: its CLI boots (seconds at load) while the producer imports
    with BrokerHeld(host, BROKER_SAMPLES_AT_MOST, Path(stack.workdir) / "unacked.txt") as broker, \
            reminder_producer(stack, stack.spec.app) as produce:
        broker.wait_started()
        produced, countdown = cases[0]
        sends: dict[str, float] = {}

        def send_the_rest() -> None:
            """The other cases, sent as soon as the producer's reminder is queued (not after the producer's end)."""
            until(lambda: helpers.runs(stack, f"{produced}:sent"), PRODUCED_WITHIN, step=0.05)
            for label, later in cases[1:]:
                sends[label] = time.time()
                stack.app.send_task(SCHEDULER, (label, later), queue="reminders", declare=[])

        dues = {produced: produce(produced, countdown, send_the_rest) + countdown}  # from when the producer calls
        sent = min(sends.values(), default=time.time())
        dues.update({label: sends[label] + later for label, later in cases[1:]})
        first = min(dues, key=dues.__getitem__)
        held = 0
        while time.time() < max(dues[first] - 0.7, sent + HELD_FROM):  # asked again and again until just before due
            held = max(held, reminders_held(stack) or 0)  # None (no answer in time): the log below still judges
            helpers.wait(0.3)
        seen = remind_rest(stack, dues, first, held)
    seen["held"] = max(seen["held"], broker.held(stack, dues, seen["first_run"]))
    return seen


def remind_rest(stack, dues: dict, first: str, held: int) -> dict:
    """The rest of `remind`: the kill once the reminder due first has run, then how often and when each one ran."""
    until(lambda: helpers.runs(stack, f"{first}:start"), max(dues.values()) + 15 - time.time(), step=0.1)
    helpers.wait(KILL_AFTER_RUN)
    stack.workers[0].kill(group=True)
    until(lambda: all(helpers.runs(stack, f"{label}:start") for label in dues),
          max(0.0, max(dues.values()) + 15 - time.time()), step=0.2)
    helpers.wait(1.5)  # a second run would log behind the first
    ran = {label: [float(line[-1]) for line in helpers.runs(stack, f"{label}:start")] for label in dues}
    held = max(held, received_early(stack.workers[0].logs(), list(dues.values())))
    return {"held": held, "dues": dues, "ran": {label: len(times) for label, times in ran.items()},
            "on_time": {label: bool(ran[label]) and ran[label][0] >= dues[label] - EARLY for label in ran},
            "first_run": {label: min(times) if times else None for label, times in ran.items()}}


def ran_before_due(first: str, then: str, dues: dict, first_run: dict) -> bool:
    """Whether reminder `first` ran before reminder `then` was due: it did not wait behind it."""
    return first_run[first] is not None and first_run[first] < dues[then]


#: The graded case's worker also loads this module: its reminders keep running SLOW_REMINDER s after they log their
#: start, so the kill lands while the reminder due first still runs (it must not run again after the restart).
SLOW_REMINDERS = "celerylab.lessons.l08_rabbitmq.check_slow_reminder"


@exercise("l08.delayed_reminder")
def delayed_reminder(run: CheckRun) -> None:
    cases = [REMINDERS] + ([GRADED_REMINDERS] if run.graded(4 + 2 * len(GRADED_REMINDERS)) else [])
    spec = WorkerSpec(pool="prefork", concurrency=1, queues=("reminders",))
    slow = WorkerSpec(pool="prefork", concurrency=1, queues=("reminders",), extra_args=("-I", SLOW_REMINDERS))
    with lab(run, 3000, [spec] + [slow] * (len(cases) - 1)) as started:
        if started is None:
            return
        say("l08.check.step.reminders")
        results = at_once(*[lambda host=host, stack=stack, case=case: remind(host, stack, case)
                            for (host, stack, _), case in zip(started, cases)])
        for index, (case, seen, (_, stack, supervisor)) in enumerate(zip(cases, results, started)):
            hidden = index > 0
            labels = ", ".join(label for label, _ in case)
            run.expect("l08.check.not_held", 0, seen["held"], hidden=hidden, label=labels)
            for label, countdown in case:
                run.expect("l08.check.ran_once", 1, seen["ran"][label], hidden=hidden, label=label)
                run.expect("l08.check.on_time", True, seen["on_time"][label], hidden=hidden, label=label,
                           countdown=countdown)
            (first, _), (then, _) = sorted(case, key=lambda item: item[1])[:2]
            run.expect("l08.check.due_order", True, ran_before_due(first, then, seen["dues"], seen["first_run"]),
                       hidden=hidden, first=first, then=then)
            survived(run, stack, supervisor, hidden=hidden, restarts=1)


def declare_poison_queue(node) -> None:
    """The queue the statement says exists: `work.poison`, bound to the direct exchange `work.poison`."""
    with Connection(node.url) as connection:
        Queue("work.poison", Exchange("work.poison", type="direct"), "work.poison")(connection.default_channel).declare()


#: The app's tasks that kill their process: the check sends both, a configuration must hold for any task on `work`.
CRASHING_TASKS = ("l08.poison", "l08.thumbnail")
#: The other crashing task's label: sent with the poisons sent after the machine is lost.
OTHER_CRASH = "t1"
POISON_LOOPING = 6   # starts that prove a poison loops: twice what the asked limit allows (a limit of 3 sets it aside at 4)
#: seconds a "gone" must last with nothing moving before the check believes it: at load 8 on 2 cores, 6 s passed
#: between a death and the next delivery while the killed worker came back, and a dead-lettered message reached
#: `work.poison` more than 6 s after the death that sent it there. A right answer ends "aside" and never waits it out.
GONE_QUIET = 12.0


def poisons_seen(node, stack, labels: list[str], killed: int = 0) -> tuple:
    """Everything that moves while a poison is handled: starts per label (one label may name several messages),
    deliveries received, deaths handled (a worker the check `killed` counting as one), messages ready in `work` and
    in `work.poison`."""
    return (tuple(len(helpers.runs(stack, f"{label}:start")) for label in dict.fromkeys(labels)),
            sum(helpers.received(worker, task) for worker in stack.workers for task in CRASHING_TASKS),
            sum(helpers.deaths_handled(worker) for worker in stack.workers) + killed,
            helpers.ready(node, "work"), helpers.ready(node, "work.poison") or 0)


def poisons_outcome(node, stack, labels: list[str], killed: int = 0) -> str | None:
    """What became of the poisons so far: "aside" (all set aside), "looping" (every message started POISON_LOOPING
    times),
    "gone" (every delivery the workers received started and had its death handled, nothing ready in `work`: the
    message dropped or acknowledged — or, for an instant, on its way back or to the dead-letter exchange), or None
    (still going)."""
    starts, received, deaths, ready, aside = poisons_seen(node, stack, labels, killed)
    if aside >= len(labels):
        return "aside"
    if all(count >= POISON_LOOPING * labels.count(label) for label, count in zip(dict.fromkeys(labels), starts)):
        return "looping"
    if min(starts) > 0 and received == sum(starts) <= deaths and ready == 0:
        return "gone"
    return None


def wait_until_poisons_settle(node, stack, labels: list[str], timeout: float = 90.0, killed: int = 0) -> str | None:
    """Return the outcome once the poisons are set aside or loop, or are gone and nothing moved (no start, delivery,
    death or dead-lettered message) for GONE_QUIET s; None after `timeout` s."""
    deadline = time.monotonic() + timeout
    while outcome := until(lambda: poisons_outcome(node, stack, labels, killed), max(0.0, deadline - time.monotonic()),
                           step=0.5):
        if outcome != "gone":
            return outcome
        before = poisons_seen(node, stack, labels, killed)
        helpers.wait(GONE_QUIET)
        if poisons_seen(node, stack, labels, killed) == before:
            return outcome
    return None


#: The machines the poison check's two workers stand for: each worker gets its own temporary folder (TMPDIR) and, where
#: bwrap runs, its own /tmp (the second worker runs as on another machine, `elsewhere.add_worker`), so what one machine
#: keeps in a local file or in memory (a delivery count) the other does not see. The machine that starts the first
#: poison is SIGKILLed right after (a machine lost): the next deliveries reach the other one.
MACHINES = ("host-a", "host-b")


def machine_workers(folder: str) -> tuple[WorkerSpec, ...]:
    """The poison check's workers, one per machine of MACHINES, each with a temporary folder of its own in `folder`."""
    specs = []
    for machine in MACHINES:
        temporary = Path(folder) / machine
        temporary.mkdir(exist_ok=True)  # an absent TMPDIR would send tempfile back to the shared /tmp
        specs.append(WorkerSpec(pool="prefork", concurrency=1, queues=("work",), extra_args=("-I", STOP_LINE),
                                env={"TMPDIR": str(temporary), "TMP": str(temporary), "TEMP": str(temporary)}))
    return tuple(specs)


def add_other_machine(stack, spec: WorkerSpec) -> None:
    """The second machine's worker: with a /tmp of its own (its TMPDIR there) where bwrap runs, else `spec` as it is."""
    if elsewhere.available():
        own = {"TMPDIR": elsewhere.TMP, "TMP": elsewhere.TMP, "TEMP": elsewhere.TMP}
        elsewhere.add_worker(stack, dataclasses.replace(spec, env={**spec.env, **own}))
    else:
        stack.add_worker(spec)


def stop_at_start(stack, label: str) -> Path:
    """Ask the workers (`check_stop_line`) to stop the process that logs poison `label`'s first start right there,
    before the poison kills it: the stop file."""
    stop = Path(stack.workdir) / STOP_FILE
    stop.write_text(f"{label}:start", encoding="utf-8")
    return stop


def lose_first_machine(stack, label: str, task_id: str, stop: Path) -> int:
    """As soon as poison `label` (task `task_id`) has started (its process stopped right after its start by `stop`,
    the stop file: before it kills itself, so its worker has no death to handle and takes no delivery first), SIGKILL
    the worker (and its children) that received it; its process manager starts it again. How many workers were
    killed (0: it never started). Killed from the log alone, a worker at load handled the poison's own death and
    received it again before the kill: a delivery RabbitMQ counts, with no start."""
    try:
        if not until(lambda: helpers.runs(stack, f"{label}:start"), 30, step=0.05):
            return 0
        until(lambda: not stop.exists(), FROZEN_WITHIN, step=0.02)
        received = f"Task l08.poison[{task_id}] received"
        holder = until(lambda: next((worker for worker in stack.workers if received in worker.logs()), None), 10,
                       step=0.05)
        if holder is None:
            return 0
        holder.kill(group=True)
        return 1
    finally:
        stop.unlink(missing_ok=True)  # never stop a later start


#: At grading, one more label sent twice: two poison messages with the same arguments, each run 3 times (a count kept
#: per input, not per message, sets the second aside too soon).
GRADED_POISONS = ["p2", "p2"]


@exercise("l08.poison_aside")
def poison_aside(run: CheckRun) -> None:
    labels = ["p1"] + (GRADED_POISONS if run.graded(2) else [])
    with tempfile.TemporaryDirectory(prefix="l08-machines-") as folder, \
            lab(run, 30000, [machine_workers(folder)[:1]], added=1) as started:
        if started is None:
            return
        node, stack, supervisor = started[0]
        add_other_machine(stack, machine_workers(folder)[1])
        declare_poison_queue(node)
        say("l08.check.step.poison", count=len(labels) + 1)
        stop = stop_at_start(stack, labels[0])
        # only the ids: a poison's result never comes, and one still held when the stack stops prints a traceback
        poisons = [stack.app.send_task("l08.poison", (label,), queue="work", declare=[]).id for label in labels[:1]]
        good = stack.app.send_task("l08.report", ("ok", 0.1), queue="work", declare=[])
        killed = lose_first_machine(stack, labels[0], poisons[0], stop)
        # the others after the machine is lost: a poison it held unstarted would go back counted as a delivery
        poisons += [stack.app.send_task("l08.poison", (label,), queue="work", declare=[]).id for label in labels[1:]]
        # a task of another name that kills its process too: the configuration is the queue's, not one task's
        poisons.append(stack.app.send_task("l08.thumbnail", (OTHER_CRASH,), queue="work", declare=[]).id)
        wait_until_poisons_settle(node, stack, labels + [OTHER_CRASH], killed=killed)
        for index, label in enumerate(dict.fromkeys(labels)):
            run.expect("l08.check.poison_runs", 3 * labels.count(label), len(helpers.runs(stack, f"{label}:start")),
                       hidden=index > 0, label=label)
        run.expect("l08.check.other_crash_runs", 3, len(helpers.runs(stack, f"{OTHER_CRASH}:start")), label=OTHER_CRASH)
        aside = helpers.ready(node, "work.poison") or 0
        run.expect("l08.check.set_aside", 2, min(aside, 2))
        if len(labels) > 1:
            run.expect("l08.check.set_aside", len(labels) + 1, aside, hidden=True)
        try:
            good.get(timeout=10, propagate=False)
        except Exception:  # still queued behind a poison that never stops: judged by its state below
            pass
        run.expect_state("l08.check.good_task", "SUCCESS", good)
