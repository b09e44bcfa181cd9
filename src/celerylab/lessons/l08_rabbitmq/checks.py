"""Lesson 08's exercise checks: each starts a private RabbitMQ node and runs the learner's module behind a process manager."""
from __future__ import annotations

import contextlib
import re
import time

from kombu import Connection, Exchange, Queue

from celerylab.checks import CheckRun, exercise
from celerylab.lessons.l08_rabbitmq import helpers
from celerylab.polling import until
from celerylab.stack import WorkerSpec, rabbitmq_node
from celerylab.stack.rabbitmq_node import RabbitNode


@contextlib.contextmanager
def lab(run: CheckRun, consumer_timeout_ms: int, spec: WorkerSpec):
    """A private node, a stack of one worker with the learner's module on it, and a supervisor; None without RabbitMQ."""
    absent = rabbitmq_node.missing()
    if absent:
        run.expect("l08.check.rabbitmq", "rabbitmq-server, rabbitmqctl", f"missing: {absent}", passed=False)
        yield None
        return
    with RabbitNode(consumer_timeout_ms=consumer_timeout_ms) as node:
        with run.stack(workers=[spec], timeline=False, settings={"broker_url": node.url},
                       env={"CELERYLAB_RUNS": "{workdir}/runs.log"}) as stack:
            with helpers.Supervisor(stack) as supervisor:
                yield node, stack, supervisor


def survived(run: CheckRun, stack, supervisor, hidden: bool = False) -> None:
    """The two criteria every exercise shares: no ack timeout in the worker's log, no restart."""
    line = helpers.ack_timeout_line(stack.workers[0])
    run.expect("l08.check.no_ack_timeout", True, not line, hidden=hidden, cause=line or None)
    run.expect("l08.check.restarts", 0, supervisor.restarts, hidden=hidden)


def parts(stack, label: str) -> list[tuple[int, float]]:
    """(part, seconds) of every part of report `label` the run log holds."""
    return [(int(line[1]), float(line[2])) for line in helpers.runs(stack, f"{label}:part")]


def report_settled(found: list[tuple[int, float]], seconds: float) -> bool:
    """A report's parts cover its seconds, or a part was logged twice (its criterion has failed for good: a report run
    again after an ack timeout only adds more repeats)."""
    numbers = [number for number, _ in found]
    return len(numbers) != len(set(numbers)) or sum(s for _, s in found) >= seconds - 0.01


def report_looping(found: list[tuple[int, float]]) -> bool:
    """A part logged LOOPING times: the worker runs the same message again after every ack timeout, and the reports
    queued behind it never start (the check stops waiting for them)."""
    numbers = [number for number, _ in found]
    return any(numbers.count(number) >= LOOPING for number in set(numbers))


LOOPING = 3  # times one part is logged that prove a loop: once is the run, twice may be one redelivery


@exercise("l08.long_report")
def long_report(run: CheckRun) -> None:
    cases = [("a", 7.0), ("b", 7.0)] + ([("c", 5.0)] if run.graded(3) else [])
    with lab(run, 3000, WorkerSpec(pool="prefork", concurrency=1)) as started:
        if started is None:
            return
        _, stack, supervisor = started
        for label, seconds in cases:
            stack.app.send_task("ex.report", (label, seconds))
        total = sum(seconds for _, seconds in cases)
        settled = lambda: all(report_settled(parts(stack, label), seconds) for label, seconds in cases)  # noqa: E731
        looping = lambda: any(report_looping(parts(stack, label)) for label, _ in cases)  # noqa: E731
        until(lambda: settled() or looping(), total + 30, step=0.2)  # generous: it returns once settled or looping
        helpers.wait(0.5)  # a part still running when the last one was logged would log after it
        for index, (label, seconds) in enumerate(cases):
            found = parts(stack, label)
            numbers = [number for number, _ in found]
            once = len(numbers) == len(set(numbers))
            done = round(sum(s for _, s in found), 2)
            run.expect("l08.check.parts", seconds, done if once else f"{done} ({len(numbers) - len(set(numbers))}×2)",
                       passed=once and abs(done - seconds) < 0.01, hidden=index >= 2, label=label, seconds=seconds)
        survived(run, stack, supervisor)
        if len(cases) > 2:
            survived(run, stack, supervisor, hidden=True)
        killed_mid_report(run, stack, behind_a_loop=looping())


KILLED = ("k", 4.0)  # the report whose worker is SIGKILLed mid-way: the cost the statement accepts is redoing a part
KILL_AFTER = 0.2     # seconds after a part is logged: the next part is running, the logged one acknowledged


def killed_mid_report(run: CheckRun, stack, behind_a_loop: bool = False) -> None:
    """Criterion 4: the worker and its children SIGKILLed in the middle of a report (the supervisor starts it again);
    the report's parts still cover its seconds, and at most one part (the one the kill interrupted) is logged twice:
    a crash costs redoing the running part, not losing work nor redoing the report. Behind a looping report it never
    starts: the check reads its parts at once."""
    label, seconds = KILLED
    stack.app.send_task("ex.report", (label, seconds))
    logged = parts(stack, label) if behind_a_loop else until(lambda: parts(stack, label), seconds + 20, step=0.05)
    if logged:
        helpers.wait(KILL_AFTER)
        stack.workers[0].kill(group=True)
        until(lambda: sum(dict(parts(stack, label)).values()) >= seconds - 0.01, seconds + 30, step=0.2)
        helpers.wait(1.5)  # a part run again would log behind the last one
    found = parts(stack, label)
    numbers = [number for number, _ in found]
    redone = len(numbers) - len(set(numbers))
    done = round(sum(dict(found).values()), 2)  # each part number once
    run.expect("l08.check.killed_parts", seconds, done if not redone else f"{done} ({redone}×2)",
               passed=bool(logged) and redone <= 1 and abs(done - seconds) < 0.01, label=label, seconds=seconds)


@exercise("l08.delayed_reminder")
def delayed_reminder(run: CheckRun) -> None:
    cases = [("r1", 7)] + ([("r2", 5)] if run.graded(5) else [])
    for index, (label, countdown) in enumerate(cases):
        hidden = index > 0
        spec = WorkerSpec(pool="prefork", concurrency=1, queues=("reminders",))
        with lab(run, 3000, spec) as started:
            if started is None:
                return
            node, stack, supervisor = started
            sent = time.time()
            stack.app.send_task("l08.remind_later", (label, countdown), queue="reminders", declare=[])
            helpers.wait(3.0)
            run.expect("l08.check.not_held", 0, helpers.scheduled(stack), hidden=hidden, label=label)
            until(lambda: helpers.runs(stack, f"{label}:start"), countdown + 15, step=0.2)
            helpers.wait(1.0)
            ran = helpers.runs(stack, f"{label}:start")
            run.expect("l08.check.ran_once", 1, len(ran), hidden=hidden, label=label)
            on_time = bool(ran) and float(ran[0][-1]) >= sent + countdown - 0.5
            run.expect("l08.check.on_time", True, on_time, hidden=hidden, label=label, countdown=countdown)
            survived(run, stack, supervisor, hidden=hidden)


def declare_poison_queue(node) -> None:
    """The queue the statement says exists: `work.poison`, bound to the direct exchange `work.poison`."""
    with Connection(node.url) as connection:
        Queue("work.poison", Exchange("work.poison", type="direct"), "work.poison")(connection.default_channel).declare()


POISON_LOOPING = 6   # starts that prove a poison loops: twice what the asked limit allows (a limit of 3 sets it aside at 4)
RECEIVED = re.compile(r"Task l08\.poison\[[^\]]+\] received")


def poisons_outcome(node, stack, labels: list[str]) -> str | None:
    """What became of the poisons so far: "aside" (all set aside), "looping" (all started POISON_LOOPING times),
    "gone" (every delivery the worker received started and had its death handled, nothing ready in `work`: the
    message dropped or acknowledged), or None (still going)."""
    if (helpers.ready(node, "work.poison") or 0) >= len(labels):
        return "aside"
    starts = [len(helpers.runs(stack, f"{label}:start")) for label in labels]
    if min(starts) >= POISON_LOOPING:
        return "looping"
    worker = stack.workers[0]
    received = len(RECEIVED.findall(worker.logs()))
    if min(starts) > 0 and received == sum(starts) <= helpers.deaths_handled(worker) and helpers.ready(node, "work") == 0:
        return "gone"
    return None


def wait_until_poisons_settle(node, stack, labels: list[str], timeout: float = 90.0) -> None:
    """Return once the poisons are set aside or loop, or are gone and still so helpers.SETTLE s later with no new start
    (a right answer is set aside after its third start), or after `timeout` s."""
    deadline = time.monotonic() + timeout
    starts = lambda: sum(len(helpers.runs(stack, f"{label}:start")) for label in labels)  # noqa: E731
    while outcome := until(lambda: poisons_outcome(node, stack, labels), max(0.0, deadline - time.monotonic()),
                           step=0.5):
        if outcome != "gone":
            return
        before = starts()
        helpers.wait(helpers.SETTLE)
        if poisons_outcome(node, stack, labels) == "gone" and starts() == before:
            return


@exercise("l08.poison_aside")
def poison_aside(run: CheckRun) -> None:
    labels = ["p1"] + (["p2"] if run.graded(2) else [])
    with lab(run, 30000, WorkerSpec(pool="prefork", concurrency=2, queues=("work",))) as started:
        if started is None:
            return
        node, stack, supervisor = started
        declare_poison_queue(node)
        for label in labels:
            stack.app.send_task("l08.poison", (label,), queue="work", declare=[])
        good = stack.app.send_task("l08.report", ("ok", 0.1), queue="work", declare=[])
        wait_until_poisons_settle(node, stack, labels)
        for index, label in enumerate(labels):
            run.expect("l08.check.poison_runs", 3, len(helpers.runs(stack, f"{label}:start")),
                       hidden=index > 0, label=label)
        aside = helpers.ready(node, "work.poison") or 0
        run.expect("l08.check.set_aside", 1, min(aside, 1))
        if len(labels) > 1:
            run.expect("l08.check.set_aside", len(labels), aside, hidden=True)
        try:
            good.get(timeout=10, propagate=False)
        except Exception:  # still queued behind a poison that never stops: judged by its state below
            pass
        run.expect_state("l08.check.good_task", "SUCCESS", good)
