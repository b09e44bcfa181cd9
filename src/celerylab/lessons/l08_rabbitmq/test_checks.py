"""Lesson 08's checks stop watching once an outcome is settled, and never before: a right answer is not cut short."""
from __future__ import annotations

import time
from pathlib import Path

import pytest

from celerylab.lessons.l08_rabbitmq import check_producer, check_unacked, checks, helpers


def test_a_report_is_settled_when_covered_or_once_a_part_repeats():
    assert checks.report_settled([(0, 3.5), (1, 3.5)], 7.0)
    assert checks.report_settled([(0, 3.5), (0, 3.5)], 7.0)  # run again after an ack timeout: failed for good
    assert not checks.report_settled([(0, 3.5)], 7.0)
    assert not checks.report_settled([], 7.0)


class FakeWorker:
    def __init__(self, log: str):
        self.log = log

    def logs(self) -> str:
        return self.log


class FakeStack:
    def __init__(self, log: str = ""):
        self.workers = [FakeWorker(log)]


def received(n: int) -> str:
    return "\n".join(f"[INFO] Task l08.poison[id-{i}] received" for i in range(n))


def lost(n: int) -> str:
    return "\n".join("Task handler raised error: WorkerLostError('Worker exited prematurely')" for _ in range(n))


@pytest.fixture
def broker(monkeypatch):
    """Set what the node and the run log report: ready messages per queue, starts per label."""
    state = {"ready": {"work": 0, "work.poison": 0}, "starts": {}}
    monkeypatch.setattr(checks.helpers, "ready", lambda node, queue: state["ready"].get(queue))
    monkeypatch.setattr(checks.helpers, "runs", lambda stack, label: [["x"]] * state["starts"].get(label.removesuffix(":start"), 0))
    return state


def test_set_aside_and_looping_settle_at_once(broker):
    broker["ready"]["work.poison"] = 2
    assert checks.poisons_outcome(None, FakeStack(), ["p1", "p2"]) == "aside"
    broker["ready"]["work.poison"] = 1
    broker["starts"] = {"p1": 6, "p2": 6}
    assert checks.poisons_outcome(None, FakeStack(), ["p1", "p2"]) == "looping"
    broker["starts"] = {"p1": 6, "p2": 5}
    assert checks.poisons_outcome(None, FakeStack(received(12) + lost(11)), ["p1", "p2"]) is None  # p2 redelivered, not yet started


def test_gone_only_when_every_delivery_started_and_died_and_nothing_is_ready(broker):
    broker["starts"] = {"p1": 3}
    assert checks.poisons_outcome(None, FakeStack(received(3) + lost(3)), ["p1"]) == "gone"
    # a redelivery received and not yet started (waiting for a new pool process): still going
    assert checks.poisons_outcome(None, FakeStack(received(4) + lost(3)), ["p1"]) is None
    # a run whose death the worker has not handled yet: still going
    assert checks.poisons_outcome(None, FakeStack(received(3) + lost(2)), ["p1"]) is None
    broker["ready"]["work"] = 1  # back in the queue, not yet delivered
    assert checks.poisons_outcome(None, FakeStack(received(3) + lost(3)), ["p1"]) is None
    broker["ready"]["work"], broker["starts"] = 0, {}
    assert checks.poisons_outcome(None, FakeStack(), ["p1"]) is None  # nothing started yet


def test_gone_waits_on_while_a_start_follows(broker, monkeypatch):
    """A right answer looks "gone" for an instant after each death; the wait goes on when a start follows."""
    broker["starts"] = {"p1": 1}
    stack = FakeStack(received(1) + lost(1))

    def redelivered_and_set_aside(seconds):
        broker["starts"]["p1"] += 1
        broker["ready"]["work.poison"] = 1

    monkeypatch.setattr(checks.helpers, "wait", redelivered_and_set_aside)
    assert checks.wait_until_poisons_settle(None, stack, ["p1"], timeout=5) == "aside"


def test_gone_waits_on_while_a_message_reaches_the_dead_letter_exchange(broker, monkeypatch):
    """Every start and death counted, the last message still on its way to `work.poison` (seconds on a loaded
    machine): no new start follows, yet nothing is gone."""
    broker["starts"], broker["ready"]["work.poison"] = {"p1": 3, "p2": 3}, 1
    stack = FakeStack(received(6) + lost(6))
    waited = []

    def dead_lettered(seconds):
        waited.append(seconds)
        broker["ready"]["work.poison"] = 2

    monkeypatch.setattr(checks.helpers, "wait", dead_lettered)
    assert checks.wait_until_poisons_settle(None, stack, ["p1", "p2"], timeout=5) == "aside"
    assert waited == [checks.GONE_QUIET]


def test_gone_that_stays_gone_returns(broker, monkeypatch):
    broker["starts"] = {"p1": 3}
    monkeypatch.setattr(checks.helpers, "wait", lambda seconds: None)
    assert checks.wait_until_poisons_settle(None, FakeStack(received(3) + lost(3)), ["p1"], timeout=5) == "gone"


def test_a_part_logged_three_times_is_a_loop():
    assert checks.report_looping([(0, 3.5), (0, 3.5), (0, 3.5)])
    assert not checks.report_looping([(0, 3.5), (0, 3.5), (1, 3.5)])  # one redelivery is not a loop
    assert not checks.report_looping([])


UNRECOVERABLE = ("[2026-12-06 04:04:16,418: CRITICAL/MainProcess] Unrecoverable error: PreconditionFailed(406, "
                 "'PRECONDITION_FAILED - delivery acknowledgement on channel 1 timed out. Timeout value used: 3000 ms. "
                 "This timeout value can be configured, see consumers doc guide to learn more', (0, 0), '')")
RECONNECTING = ("[2026-12-06 04:04:16,418: WARNING/MainProcess] consumer: Connection to broker lost. Trying to "
                "re-establish the connection... (PreconditionFailed(406, 'PRECONDITION_FAILED - delivery acknowledgement "
                "on channel 1 timed out. Timeout value used: 3000 ms. This timeout value can be configured, see consumers "
                "doc guide to learn more', (0, 0), ''))")  # broker_channel_error_retry=True (Celery 5.7)
TRACEBACK = ("amqp.exceptions.PreconditionFailed: Basic.ack: (406) PRECONDITION_FAILED - delivery acknowledgement on "
             "channel 1 timed out. Timeout value used: 3000 ms. This timeout value can be configured, see consumers doc "
             "guide to learn more")  # the same error's str, as a traceback ends


@pytest.mark.parametrize("line", [UNRECOVERABLE, RECONNECTING, TRACEBACK], ids=["unrecoverable", "reconnecting", "traceback"])
def test_the_ack_timeout_is_recognised_in_every_form_the_worker_logs_it(line):
    found = checks.ack_timeout_line(FakeWorker(f"[INFO] ready.\n{line}\n[INFO] Connected to amqp://"))
    assert found.startswith("PRECONDITION_FAILED - delivery acknowledgement on channel 1 timed out")
    assert found.endswith("learn more")


def test_another_precondition_failure_is_not_an_ack_timeout():
    log = "amqp.exceptions.PreconditionFailed: Queue.declare: (406) PRECONDITION_FAILED - invalid arg 'x-delivery-limit'"
    assert checks.ack_timeout_line(FakeWorker(log)) == ""


def stamp(seconds: float) -> str:
    """A worker log's local time, `seconds` after 04:00:00."""
    from datetime import datetime, timedelta

    return (datetime(2026, 12, 6, 4, 0, 0) + timedelta(seconds=seconds)).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]


def at(seconds: float) -> float:
    from datetime import datetime

    return datetime(2026, 12, 6, 4, 0, 0).timestamp() + seconds


def receipt(seconds: float, name: str) -> str:
    return f"[{stamp(seconds)}: INFO/MainProcess] Task {name}[id-{seconds}] received\n"


def test_a_reminder_received_before_it_is_due_counts_as_held_even_when_inspect_lists_none():
    """A reminder slept on in task_prerun is active, not scheduled; a loaded worker may not answer inspect at all: the
    log's `received` line, written when the message reaches the worker, still says when the worker took it."""
    log = receipt(1.02, "l08.remind_later") + receipt(1.15, "l08.remind")
    assert checks.received_early(log, [at(4)]) == 1
    assert checks.received_early(receipt(1.02, "l08.remind_later") + receipt(4.01, "l08.remind"), [at(4)]) == 0


def test_a_reminder_carried_under_another_name_counts_as_held():
    """A task that sends itself again with short countdowns (a "hop") carries the reminder under its own name."""
    log = receipt(1.0, "l08.remind_later") + receipt(1.1, "ex.hop") + receipt(3.1, "ex.hop") + receipt(4.0, "l08.remind")
    assert checks.received_early(log, [at(4)]) == 2


def test_each_receipt_is_judged_against_the_reminder_due_in_its_turn():
    """Two reminders due at 3 s and 7 s: the first received at 3 s is on time, a second one at 3.1 s is 4 s early."""
    dues = [at(7), at(3)]
    assert checks.received_early(receipt(3.0, "l08.remind") + receipt(7.0, "l08.remind"), dues) == 0
    assert checks.received_early(receipt(3.0, "l08.remind") + receipt(3.1, "l08.remind"), dues) == 1


def test_the_reminder_due_first_must_run_before_the_other_is_due():
    dues = {"r1": at(7.0), "r2": at(3.0)}
    assert checks.ran_before_due("r2", "r1", dues, {"r1": at(7.0), "r2": at(3.1)})
    # dead-lettered right behind r1 (a classic queue's per-message TTL), even if the worker then runs it first
    assert not checks.ran_before_due("r2", "r1", dues, {"r1": at(7.11), "r2": at(7.08)})
    assert not checks.ran_before_due("r2", "r1", dues, {"r1": at(7.0), "r2": None})


def test_a_worker_that_exits_at_start_is_judged_with_the_reason_its_log_gives():
    from celerylab.stack.errors import ServiceError, StackError

    tail = ("  File \"/x/amqp/channel.py\", line 294, in _on_close\n    raise error_for_code(\n"
            "amqp.exceptions.PreconditionFailed: Queue.declare: (406) PRECONDITION_FAILED - invalid arg "
            "'x-delivery-limit' for queue 'work' in vhost 'check-1' of queue type rabbit_classic_queue\n"
            "[2026-12-06 10:16:40,970: WARNING/MainProcess] Received method (60, 60) during closing channel 2.")
    exited = StackError("stack.exited", tail, name="worker1", code=1, pattern="ready")
    assert checks.exited_at_start(exited)
    assert checks.start_failure(exited).startswith("amqp.exceptions.PreconditionFailed: Queue.declare: (406)")
    assert checks.start_failure(StackError("stack.exited", "ModuleNotFoundError: No module named 'x'\n", name="w",
                                           code=1, pattern="ready")) == "ModuleNotFoundError: No module named 'x'"
    assert not checks.exited_at_start(StackError("stack.not_ready", "", name="w", timeout=30, pattern="ready"))
    assert not checks.exited_at_start(ServiceError("stack.exited", "", name="broker", code=1, pattern="ready"))
    assert not checks.exited_at_start(RuntimeError("stack.exited"))


def test_deliveries_and_deaths_are_counted_on_every_worker(broker):
    """Two workers share the poisons: a count of one worker's log alone never sees every delivery settled."""
    broker["starts"] = {"p1": 3}
    two = FakeStack(received(2) + lost(2))
    two.workers.append(FakeWorker(received(1) + lost(1)))
    assert checks.poisons_outcome(None, two, ["p1"]) == "gone"


def test_each_machine_gets_a_temporary_folder_of_its_own(tmp_path):
    specs = checks.machine_workers(str(tmp_path))
    folders = {spec.env["TMPDIR"] for spec in specs}
    assert len(specs) == len(folders) == 2
    assert all(Path(folder).is_dir() for folder in folders)  # tempfile ignores a TMPDIR that does not exist


class KillableWorker(FakeWorker):
    def __init__(self, log: str):
        super().__init__(log)
        self.killed = False

    def kill(self, group: bool = False) -> None:
        self.killed = group


def test_the_machine_lost_is_the_one_that_received_the_first_poison(monkeypatch, tmp_path):
    """Each machine may hold a poison (two at grading): the one killed is the worker whose log received `p1`'s task."""
    monkeypatch.setattr(checks.helpers, "runs", lambda stack, label: [["p1:start"]])
    stack = FakeStack()
    stack.workdir = tmp_path
    stack.workers = [KillableWorker("Task l08.poison[id-p2] received"), KillableWorker("Task l08.poison[id-p1] received")]
    stop = checks.stop_at_start(stack, "p1")
    assert stop.read_text() == "p1:start" and stop.parent == tmp_path
    assert checks.lose_first_machine(stack, "p1", "id-p1", stop) == 1
    assert [worker.killed for worker in stack.workers] == [False, True]
    assert not stop.exists()  # never a later start stopped


def test_the_poison_check_s_workers_stop_at_the_line_the_stop_file_names(tmp_path):
    """The process that starts the first poison stops before it kills itself: its worker, killed by the check, never
    handled that death first and took the message again (a delivery RabbitMQ counts, with no start)."""
    assert all(spec.extra_args == ("-I", checks.STOP_LINE) for spec in checks.machine_workers(str(tmp_path)))


def test_a_killed_worker_counts_as_a_death_handled(broker):
    """A worker killed right after its child died may never log the WorkerLostError: the kill stands for it."""
    broker["starts"] = {"p1": 3}
    log = FakeStack(received(3) + lost(2))
    assert checks.poisons_outcome(None, log, ["p1"]) is None
    assert checks.poisons_outcome(None, log, ["p1"], killed=1) == "gone"


class Run:
    """A CheckRun's expect(), recording criteria."""

    def __init__(self):
        self.criteria = []

    def expect(self, key, expected, observed, *, passed=None, cause=None, hidden=False, **values):
        self.criteria.append({"key": key, "expected": expected, "observed": observed, "passed": passed, "cause": cause})


def test_a_part_logged_three_times_reads_as_such_not_as_two_parts_twice():
    run = Run()
    checks.expect_parts(run, "a", [(0, 4.0), (0, 4.0), (0, 4.0)], 4.0, hidden=False)
    checks.expect_parts_once(run, [([(0, 4.0), (0, 4.0), (0, 4.0)], "a"), ([(0, 2.0), (1, 2.0)], "b")], hidden=False)
    covered, once = run.criteria
    assert (covered["observed"], covered["passed"]) == (4.0, True)  # each part number counted once
    assert (once["expected"], once["observed"]) == ({}, {"a": {0: 3}})
    run = Run()
    checks.expect_parts(run, "a", [(0, 2.0), (1, 2.0)], 4.0, hidden=False)
    assert run.criteria[0]["passed"] and run.criteria[0]["cause"] is None


def test_a_last_part_of_a_few_milliseconds_left_out_fails_and_one_logged_passes():
    halves = [(number, 0.5) for number in range(12)]
    run = Run()
    checks.expect_parts(run, "p", halves, 6.003, hidden=True)
    checks.expect_parts(run, "p", [*halves, (12, 6.003 - 6.0)], 6.003, hidden=True)
    assert [criterion["passed"] for criterion in run.criteria] == [False, True]
    assert run.criteria[0]["observed"] == 6.0
    assert not checks.report_settled(halves, 6.003)  # the check waits for the last part rather than judge without it
    assert checks.report_settled([*halves, (12, 6.003 - 6.0)], 6.003)


def test_the_graded_lengths_leave_a_few_milliseconds_after_whole_parts_of_the_usual_sizes():
    lengths = [seconds for _, seconds in checks.MORE_REPORTS]
    for part in (0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 1.0):
        tails = [round(seconds - part * int(seconds / part + 1e-9), 6) for seconds in lengths]
        assert any(0 < tail < 0.05 for tail in tails), part


WORKER, CHILD, WINDOW = checks.KILLS


def killed(found, left):
    run = Run()
    checks.expect_killed(run, WORKER, found, left)
    return {criterion["key"].rsplit(".", 1)[1]: criterion for criterion in run.criteria}


def test_a_worker_never_killed_is_why_the_killed_report_fails_even_with_its_seconds_covered():
    seen = killed([(0, 6.0)], None)
    assert (seen["worker_kill_landed"]["observed"], seen["worker_kill_landed"]["passed"]) == (None, False)
    assert seen["worker_killed_parts"]["passed"] and seen["worker_killed_redone"]["passed"]
    seen = killed([(0, 1.0), (1, 1.0), (1, 1.0)] + [(n, 1.0) for n in range(2, 6)], 3.0)
    assert all(criterion["passed"] for criterion in seen.values())  # the one part the kill interrupted, redone


def test_a_report_over_before_the_kill_fails_even_with_its_seconds_covered_once():
    seen = killed([(0, 3.0), (1, 3.0)], 0.0)
    assert (seen["worker_kill_landed"]["observed"], seen["worker_kill_landed"]["passed"]) == (0.0, False)
    assert killed([(n, 1.0) for n in range(6)], 3.0)["worker_kill_landed"]["passed"]


def test_more_than_the_interrupted_part_redone_fails_and_the_lost_parts_show():
    seen = killed([(0, 1.0), (1, 1.0), (2, 1.0), (2, 1.0), (3, 1.0), (3, 1.0), (4, 1.0), (5, 1.0)], 4.0)
    assert (seen["worker_killed_redone"]["observed"], seen["worker_killed_redone"]["passed"]) == (2, False)
    run = Run()
    checks.expect_killed(run, CHILD, [(0, 0.5), (1, 0.5)], 0.0)  # the chain stopped at the killed pool process
    assert [(c["key"], c["observed"], c["passed"]) for c in run.criteria] == [
        ("l08.check.child_kill_landed", 0.0, False), ("l08.check.child_killed_parts", 1.0, False),
        ("l08.check.child_killed_redone", 0, True)]


class FakeHost:
    name = "l08-check-2"

    def __init__(self, answers):
        self.answers, self.calls = list(answers), []

    def ctl(self, *args, timeout=120):
        self.calls.append(args)
        return self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]


def test_the_report_s_messages_are_counted_on_the_host_s_task_queues_only():
    host = FakeHost(["celery\t2\ncelery@host.celery.pidbox\t3\nceleryev.1234\t5\nparts\t1\n"])
    assert checks.report_messages(host) == 3
    assert host.calls[0] == ("list_queues", "-p", "l08-check-2", "-q", "--no-table-headers", "name", "messages")
    assert checks.report_messages(FakeHost([""])) is None  # the node did not answer: no count


#: What `rabbitmqctl list_queues` printed in a grading job (its folder searchable, not listable, by the job's user):
#: the CLI's Erlang VM reports it could not list it, on stdout, before the answer.
GRADING_JOB_ANSWER = ("=ERROR REPORT==== 7-Dec-2026::15:43:09.217783 ===\n"
                      "File operation error: eacces. Target: .. Function: list_dir. Process: application_controller.\n"
                      "celeryev.9b6bd3dd-dcb2-44ef-971a-4cd76547adae\t0\ncelery\t2\n"
                      "w1-bc2eb06b@celerylab-job.celery.pidbox\t0\n")


def test_the_erlang_vm_s_own_reports_on_stdout_are_not_read_as_queues():
    """A line of the VM's error report (words, no tab and count) is no queue: read as one, the check crashed with
    "too many values to unpack", which the learner read as a failure of their code."""
    assert checks.report_messages(FakeHost([GRADING_JOB_ANSWER])) == 2
    assert helpers.messages(FakeHost([GRADING_JOB_ANSWER])) == {
        "celeryev.9b6bd3dd-dcb2-44ef-971a-4cd76547adae": 0, "celery": 2, "w1-bc2eb06b@celerylab-job.celery.pidbox": 0}
    assert helpers.unacked(FakeHost([GRADING_JOB_ANSWER]), "celery") == 2
    assert checks.report_messages(FakeHost([GRADING_JOB_ANSWER.split("celeryev")[0]])) is None  # a report, no answer


class FreezableWorker:
    def __init__(self, log):
        self.log = log

    def kill(self, sig=None, *, group=False, timeout=10.0):
        self.log.append(("SIGKILL", group))


def test_the_window_kill_freezes_the_worker_then_kills_it_once_the_broker_holds_the_next_part(monkeypatch):
    """No ack can leave a frozen worker: the kill waits until the part's message and the next one's are both held."""
    log = []
    monkeypatch.setattr(checks.ManagedProcess, "kill", lambda worker, sig, group=False: log.append(("stop", sig)))
    host = FakeHost(["celery\t1\n", "celery\t1\n", "celery\t2\n"])
    checks.kill_in_window(host, FreezableWorker(log))
    assert log == [("stop", checks.signal.SIGSTOP), ("SIGKILL", True)]
    assert len(host.calls) == 3  # killed at the first reading with two messages, not before


def test_a_duplicated_continuation_fails_the_window_kill_s_criterion():
    run = Run()
    checks.expect_killed(run, WINDOW, [(0, 0.5), (1, 0.5), (2, 0.5), (2, 0.5)] + [(n, 0.5) for n in range(3, 12)] * 2,
                         4.5)
    assert [(c["key"], c["passed"]) for c in run.criteria] == [
        ("l08.check.window_kill_landed", True), ("l08.check.window_killed_parts", True),
        ("l08.check.window_killed_redone", False)]


def graded_short(reports) -> tuple:
    """The graded short reports' scenario's result, its one-label reports and resent one run whole."""
    label, seconds = checks.GRADED_RESENT
    return ((reports, 0.0), sum(seconds for _, seconds in checks.GRADED_SAME_LABEL),
            ([(0, seconds)], [(0, seconds)]), [(number, 0.5) for number in range(600)])


def test_the_graded_short_reports_fail_on_a_part_logged_twice(monkeypatch):
    monkeypatch.setattr(checks, "survived", lambda *args, **kwargs: None)
    monkeypatch.setattr(checks, "logged_parts", lambda stack, labels: [])
    reports = [([(0, seconds), (0, seconds)], seconds) for _, seconds in checks.MORE_REPORTS]
    moved = ((4.0, [(n, 1.0) for n in range(6)]), 3.0, [(n, 1.0) for n in range(6)], [(0, 2.0)],
             (3.5, [(n, 1.0) for n in range(4)]))
    run = Run()
    checks.expect_more(run, [(None, FakeStack(), None)] * 2, [graded_short(reports), moved])
    once = [c for c in run.criteria if c["key"] == "l08.check.parts_repeated"]
    assert len(once) == 2 and once[0]["expected"] == {} and once[1]["observed"] == {}  # the second: LONGEST's
    assert set(once[0]["observed"]) == {label for label, _ in checks.MORE_REPORTS}


def test_a_part_done_and_remembered_only_on_the_machine_that_died_fails_the_moved_window_crash(monkeypatch):
    """The window crash with its worker replaced by one on another machine: the done part, redelivered there, is run
    again with the rest of the report it publishes (a marker under /tmp stayed on the dead machine)."""
    monkeypatch.setattr(checks, "survived", lambda *args, **kwargs: None)
    monkeypatch.setattr(checks, "logged_parts", lambda stack, labels: [])
    reports = [([(0, seconds)], seconds) for _, seconds in checks.MORE_REPORTS]
    twice = [(0, 1.0), (1, 1.0), (1, 1.0)] + [(n, 1.0) for n in range(2, 6)] * 2
    run = Run()
    checks.expect_more(run, [(None, FakeStack(), None)] * 2,
                       [graded_short(reports), ((4.0, twice), 3.0, [(n, 1.0) for n in range(6)], [(0, 2.0)],
                                                (3.5, [(n, 1.0) for n in range(4)]))])
    window = [(c["key"], c["observed"], c["passed"]) for c in run.criteria if "window" in c["key"]]
    assert window == [("l08.check.window_kill_landed", 4.0, True), ("l08.check.window_killed_parts", 6.0, True),
                      ("l08.check.window_killed_redone", 5, False)]


class ExitedAtStart(Exception):
    def __init__(self, log_tail: str):
        super().__init__("o worker saiu")  # what a StackError says, in this process's language
        self.log_tail = log_tail


def test_a_worker_that_exited_at_start_is_explained_by_its_own_log_never_by_the_checks_words():
    assert checks.start_cause(ExitedAtStart("boot\nImportError: no module named x\nbye\n")) == \
        "ImportError: no module named x"
    assert checks.start_cause(ExitedAtStart("boot\nexited with code 1\n\n")) == "exited with code 1"
    assert checks.start_cause(ExitedAtStart("")) is None


def lesson_verdicts(lang: str) -> list[str]:
    """Every criterion lesson 08's checks record from failing observations, in a process whose language is `lang`,
    read back as the grader reads a job's verdict and rendered in English (the learner's language)."""
    from celerylab import i18n
    from celerylab.checks.check_run import CheckRun
    from celerylab.checks.render import criterion_line
    from celerylab.checks.verdict import Verdict
    from celerylab.course import Course

    before = i18n._current
    i18n._current = lang
    try:
        run = CheckRun(Course.of_process().find_exercise("l08.long_report"), Path("."))
        checks.expect_rabbitmq(run, "rabbitmqctl")
        run.expect("l08.check.worker_started", True, False, cause=checks.start_cause(ExitedAtStart("x\nbye")))
        checks.expect_parts(run, "a", [(0, 4.0), (0, 4.0)], 8.0, hidden=False)
        checks.expect_parts_once(run, [([(0, 4.0), (0, 4.0)], "a")], hidden=False)
        for kill in checks.KILLS + (("first",) + checks.FIRST,):
            for found, left in (([(0, 6.0)], None), ([(0, 3.0), (1, 3.0)], 0.0), ([(0, 1.0)] * 3, 1.0)):
                checks.expect_killed(run, kill, found, left)
        checks.expect_same_label(run, checks.SAME_LABEL, 2.5, hidden=False)
        checks.expect_resent(run, checks.RESENT, [(0, 1.0)], [], hidden=False)
        record = run.verdict.to_record()
    finally:
        i18n._current = before
    return [criterion_line(criterion, "en") for criterion in Verdict.from_record(record, "l08.long_report").criteria]


def test_every_verdict_of_the_checks_reads_in_the_learners_language_whatever_the_checking_process_speaks():
    """A grading job, or `celerylab check --watch` on a notebook of the other language, checks in a process whose
    language is not the learner's: its verdict must read the same as one checked in the learner's language."""
    english = lesson_verdicts("en")
    assert sum("✘" in criterion for criterion in english) >= 10 and any("bye" in criterion for criterion in english)
    assert lesson_verdicts("pt") == english


def test_parts_logged_sooner_than_their_work_allows_are_counted():
    sent = 100.0
    worked = [(0.5, 100.6), (0.5, 101.15), (0.5, 101.7)]  # each logged at least its seconds after the one before
    assert checks.parts_too_soon(worked, sent) == 0
    written = [(2.0, 100.01), (2.0, 100.02)]  # two lines written at once, no work between them
    assert checks.parts_too_soon(written, sent) == 2
    assert checks.parts_too_soon([(6.0, 100.3)], sent) == 1  # one line of 6 s logged 0.3 s after the send
    assert checks.parts_too_soon([(0.5, 100.6), (0.5, 100.9)], sent) == 1  # two parts at once on concurrency 1


def test_logged_parts_reads_seconds_and_time_of_every_report_in_the_order_logged(tmp_path):
    (tmp_path / "runs.log").write_text("a:part 0 0.5 11 100.600\nb:part 0 0.5 11 100.100\nr1:start 11 99.0\n")

    class Stack:
        workdir = tmp_path

    assert checks.logged_parts(Stack(), ["a", "b"]) == [(0.5, 100.1), (0.5, 100.6)]


@pytest.mark.parametrize("source,commented", [
    ("# Cost: more messages per report\nx = 1\n", True),
    ("x = 1  # one message per part, and a crash redoes the running part\n", True),
    ('"""Cost: more messages per report."""\nx = 1\n', False),  # a docstring is not a comment
    ("x = 1  # noqa\n", False),
    ("x = 1\n", False),
    ("def broken(:\n    # costs more messages\n", True),  # a comment still counts in a module that does not parse
])
def test_the_cost_comment_is_a_hash_comment_of_a_few_words(source, commented):
    assert checks.cost_comment(source) is commented


def test_a_module_without_a_cost_comment_fails_its_criterion(tmp_path):
    class Checked(Run):
        workdir, module = tmp_path, "ex_report"

    (tmp_path / "ex_report.py").write_text('"""Cost: more messages."""\nx = 1\n')
    run = Checked()
    checks.expect_cost_comment(run)
    assert run.criteria[0]["observed"] is False
    (tmp_path / "ex_report.py").write_text("x = 1  # cost: one message per part\n")
    run = Checked()
    checks.expect_cost_comment(run)
    assert run.criteria[0]["observed"] is True


def test_only_the_graded_reminders_worker_loads_the_slow_reminder():
    from celerylab.lessons.l08_rabbitmq import check_slow_reminder

    assert checks.SLOW_REMINDERS == check_slow_reminder.__name__
    assert checks.KILL_AFTER_RUN + 1.0 < check_slow_reminder.SLOW_REMINDER < 3.0  # mid-run at the kill, under the timeout


def test_a_reminder_redelivered_after_the_kill_is_not_a_reminder_held_before_its_turn():
    """r4 (due at 2 s) runs, the kill lands while it runs, and its message (acks_late) comes back at 2.9 s, before r3
    is due: a second run (ran_once's failure), not one more reminder received early."""
    dues = [at(11), at(2)]
    again = f"[{stamp(2.9)}: INFO/MainProcess] Task l08.remind[id-2.0] received\n"
    log = receipt(2.0, "l08.remind") + again + receipt(11.0, "l08.remind")
    assert checks.received_early(log, dues) == 0
    other = receipt(2.0, "l08.remind") + receipt(2.9, "l08.remind") + receipt(11.0, "l08.remind")  # another task id
    assert checks.received_early(other, dues) == 1


def test_the_slow_reminder_keeps_only_l08_remind_running(monkeypatch):
    from celerylab.lessons.l08_rabbitmq import check_slow_reminder

    slept = []
    monkeypatch.setattr(check_slow_reminder.time, "sleep", slept.append)

    class Task:
        def __init__(self, name):
            self.name = name

    check_slow_reminder.keep_running(sender=Task("l08.remind_later"))
    assert slept == []
    check_slow_reminder.keep_running(sender=Task("l08.remind"))
    assert slept == [check_slow_reminder.SLOW_REMINDER]


def test_a_label_sent_twice_loops_only_when_both_its_messages_do(broker):
    """Two poison messages with the same arguments share a label: twice the starts before the check calls it a loop."""
    broker["ready"]["work.poison"] = 1
    broker["starts"] = {"p1": 6, "p2": 6}
    many = FakeStack(received(12) + lost(11))
    assert checks.poisons_outcome(None, many, ["p1", "p2", "p2"]) is None
    broker["starts"] = {"p1": 6, "p2": 12}
    assert checks.poisons_outcome(None, many, ["p1", "p2", "p2"]) == "looping"


def test_the_node_s_samples_are_read_as_stamped_readings():
    out = "[{1796589121532,3},\n {1796589121733,0}]\n"
    assert check_unacked.readings(out) == [(1796589121.532, 1796589121.532, 3), (1796589121.733, 1796589121.733, 0)]
    assert '<<"check-7">>' in check_unacked.sampler("check-7", 1, "/x/unacked.txt")


def test_the_broker_s_count_judges_only_readings_while_no_reminder_is_due(monkeypatch):
    """Sent at 100 and 100.1, due at 103 (r2, ran at 103.2) and 107 (r1): a reading counts when it lies between the
    sends (+0.3 s) and 102.5, or between 104.7 and 106.5."""
    sent = {"r1:sent": [["r1:sent", "1", "100.000"]], "r2:sent": [["r2:sent", "1", "100.100"]]}
    monkeypatch.setattr(check_unacked.helpers, "runs", lambda stack, label: sent.get(label, []))
    watch = check_unacked.BrokerHeld(None, 0)
    dues, first_run = {"r1": 107.0, "r2": 103.0}, {"r1": 107.1, "r2": 103.2}
    watch.readings = [(100.2, 101.0, 4), (102.0, 103.0, 3), (103.5, 104.5, 2), (105.0, 106.0, 0)]
    assert watch.held(None, dues, first_run) == 0  # the first began before the sends settled, the others overlap a due
    watch.readings.append((105.0, 106.4, 1))
    assert watch.held(None, dues, first_run) == 1
    watch.readings.append((100.5, 102.4, 2))
    assert watch.held(None, dues, first_run) == 2


def test_the_producer_s_begin_line_is_read_for_its_label_only(tmp_path):
    log = tmp_path / "producer.log"
    log.write_text("ready\nbegin r4 1700000000.250\n")
    assert check_producer.began(log, "r4") == 1700000000.25
    assert check_producer.began(log, "r2") is None


#: Stands in for the producer (no broker): ready, then for its request the begin line, a non-daemon timer that would
#: write `late` after 2 s (what a reminder held in the producer's memory does), and the line saying the call returned.
FAKE_PRODUCER = """
import sys, threading, time
print("ready", flush=True)
label, countdown = sys.stdin.readline().split()
print(f"begin {label} {time.time():.3f}", flush=True)
threading.Timer(2.0, lambda: open("late", "w").close()).start()
print("returned", flush=True)
"""


def test_the_producer_is_ended_as_soon_as_its_call_returned(tmp_path):
    """A timer the call left in the producer never fires: the check ends the producer once the call returned, and
    what the check does meanwhile runs once the call began."""
    import os
    import sys
    import time

    class Workdir:
        workdir = tmp_path

        @staticmethod
        def process_env():
            return dict(os.environ)

    meanwhile: list[float] = []
    with check_producer.reminder_producer(Workdir(), command=[sys.executable, "-c", FAKE_PRODUCER]) as produce:
        called = produce("r1", 7, lambda: meanwhile.append(time.time()))
        assert abs(called - time.time()) < 5
        assert len(meanwhile) == 1 and meanwhile[0] >= called  # the check's other sends wait for the call, not the end
        time.sleep(2.5)
        assert not (tmp_path / "late").exists()
    assert "returned" in (tmp_path / "producer.log").read_text()


def test_a_remainder_under_a_millisecond_left_out_fails_and_one_logged_passes():
    halves = [(0, 0.5), (1, 0.5), (2, 0.5), (3, 0.5)]
    run = Run()
    checks.expect_parts(run, "x", halves, 2.0009, hidden=True)
    checks.expect_parts(run, "x", [*halves, (4, 2.0009 - 2.0)], 2.0009, hidden=True)
    checks.expect_parts(run, "u", [], 0.0008, hidden=True)
    checks.expect_parts(run, "u", [(0, 0.0008)], 0.0008, hidden=True)
    assert [criterion["passed"] for criterion in run.criteria] == [False, True, False, True]


def test_every_graded_precision_has_a_length_past_it():
    """The statement's numbers: parts add up to within COVERED_WITHIN, a remainder under 1 ms is work too. The lengths
    leave remainders under 1 ms (and one past COVERED_WITHIN by little) after whole parts, and one is under 1 ms."""
    lengths = [seconds for _, seconds in checks.MORE_REPORTS] + [checks.RESENT[1], checks.GRADED_RESENT[1]]
    assert any(seconds < 0.001 for seconds in lengths)
    for part in (0.1, 0.25, 0.5, 1.0):
        tails = [round(seconds - part * int(seconds / part + 1e-9), 6) for seconds in lengths]
        assert any(checks.COVERED_WITHIN < tail < 0.001 for tail in tails), part
        assert any(checks.COVERED_WITHIN < tail <= 3 * checks.COVERED_WITHIN for tail in tails), part


def test_reports_of_one_label_sent_at_once_must_each_run_whole():
    run = Run()
    checks.expect_same_label(run, checks.SAME_LABEL, 2.5, hidden=False)  # the first one's parts skipped by the second
    checks.expect_same_label(run, checks.SAME_LABEL, 4.0, hidden=False)
    checks.expect_same_label(run, checks.GRADED_SAME_LABEL, 4.0008, hidden=True)
    assert [criterion["passed"] for criterion in run.criteria] == [False, True, True]
    assert {criterion["key"] for criterion in run.criteria} == {"l08.check.same_label_parts"}


def test_a_report_sent_again_once_over_must_run_whole_again():
    run = Run()
    first = [(0, 0.5), (1, 0.5), (2, 0.0009)]
    checks.expect_resent(run, checks.RESENT, first, [], hidden=False)  # a report already done, known by its arguments
    checks.expect_resent(run, checks.RESENT, first, first, hidden=False)
    assert [(criterion["key"], criterion["passed"]) for criterion in run.criteria] == [
        ("l08.check.parts", True), ("l08.check.resent_parts", False),
        ("l08.check.parts", True), ("l08.check.resent_parts", True)]


class StopStack:
    """A stack whose one report logs its parts as a stopped process would: part 0 (taking the stop file), then, once
    killed, the rest."""

    def __init__(self, workdir: Path):
        self.workdir, self.killed = workdir, None
        self.sent: list = []
        self.app = self

    def send_task(self, name, args):
        self.sent.append((args, (self.workdir / checks.STOP_FILE).read_text()))


def test_the_first_part_kill_asks_the_stop_then_kills_and_never_stops_a_later_part(monkeypatch, tmp_path):
    stack = StopStack(tmp_path)
    logged = []

    def parts(stack_, label):
        if stack.sent and not logged:
            logged.append((0, 1.0, 100.0))
            (tmp_path / checks.STOP_FILE).unlink()  # what the stopped process does
        return [(number, seconds) for number, seconds, _ in logged]

    def kill():
        assert logged == [(0, 1.0, 100.0)]  # killed right after the first part, nothing after it
        logged.extend([(0, 1.0, 102.0), (1, 1.0, 103.0), (2, 1.0, 104.0)])
        return 101.0

    monkeypatch.setattr(checks, "parts", parts)
    monkeypatch.setattr(checks, "logged_parts", lambda stack_, labels: [(s, at) for _, s, at in logged])
    monkeypatch.setattr(checks.helpers, "wait", lambda seconds: None)
    left, found = checks.killed_after_first_part(stack, "r", 3.0, kill)
    assert stack.sent == [(("r", 3.0), "r:part")]  # the stop asked before the report was sent
    assert (left, len(found)) == (3.0, 4)
    assert not (tmp_path / checks.STOP_FILE).exists()


def test_the_long_report_s_workers_load_the_stop_line_hook():
    from celerylab.lessons.l08_rabbitmq import check_stop_line

    assert checks.STOP_LINE == check_stop_line.__name__
    assert check_stop_line.STOP_SUFFIX == checks.STOP_FILE.removeprefix("runs.log")


def test_the_stop_line_hook_stops_once_the_process_that_logs_the_named_line(monkeypatch, tmp_path):
    from types import SimpleNamespace

    from celerylab.lessons.l08_rabbitmq import check_stop_line

    runs = tmp_path / "runs.log"
    monkeypatch.setenv("CELERYLAB_RUNS", str(runs))
    signals, lines = [], []
    monkeypatch.setattr(check_stop_line.os, "kill", lambda pid, sig: signals.append(sig))
    module = SimpleNamespace(record=lambda label, *details: lines.append(label))
    check_stop_line.patch(module)
    check_stop_line.patch(module)  # once: a second import wraps nothing more
    module.record("r:part", 0, 1.0)
    assert signals == []  # no stop asked
    (tmp_path / "runs.log.stop").write_text("r:part", encoding="utf-8")
    module.record("s:part", 0, 1.0)
    assert signals == []  # another label's line
    module.record("r:part", 0, 1.0)
    module.record("r:part", 1, 1.0)
    assert signals == [check_stop_line.signal.SIGSTOP]  # the first one only, after its line was logged
    assert lines == ["r:part", "s:part", "r:part", "r:part"]
    assert not (tmp_path / "runs.log.stop").exists()


def hooked(monkeypatch, tmp_path):
    """check_stop_line with this test's run log, its stops recorded instead of done, and a module logging to it."""
    from types import SimpleNamespace

    from celerylab.lessons.l08_rabbitmq import check_stop_line

    runs = tmp_path / "runs.log"
    monkeypatch.setenv("CELERYLAB_RUNS", str(runs))
    monkeypatch.setattr(check_stop_line, "armed", None)
    signals: list = []
    monkeypatch.setattr(check_stop_line.os, "kill", lambda pid, sig: signals.append(sig))

    def record(label, *details):
        with open(runs, "a", encoding="utf-8") as log:
            log.write(" ".join(map(str, (label, *details, 1, 0.0))) + "\n")

    module = SimpleNamespace(record=record)
    check_stop_line.patch(module)
    return check_stop_line, module, signals, tmp_path / "runs.log.stop"


def test_the_stop_line_hook_stops_at_the_nth_line_or_the_one_that_completes_the_seconds(monkeypatch, tmp_path):
    hook, module, signals, stop = hooked(monkeypatch, tmp_path)
    stop.write_text("r:part 3", encoding="utf-8")
    module.record("r:part", 0, 0.5)
    module.record("s:part", 0, 0.5)
    module.record("r:part", 1, 0.5)
    assert signals == []  # two lines of r so far
    module.record("r:part", 2, 0.5)
    assert signals == [hook.signal.SIGSTOP] and not stop.exists()
    assert (tmp_path / "runs.log.stopped").exists()  # the check knows it stopped
    stop.write_text("r:part =2.0", encoding="utf-8")
    module.record("r:part", 3, 0.25)
    assert len(signals) == 1  # 1.75 s logged
    module.record("r:part", 4, 0.25)
    assert len(signals) == 2  # the line that completes 2 s


def test_the_stop_line_hook_stops_around_the_first_message_published_after_the_line(monkeypatch, tmp_path):
    hook, module, signals, stop = hooked(monkeypatch, tmp_path)
    events = []

    def send(what):
        return lambda: events.append((what, len(signals)))

    for where, expected in (("send_before", [("next", 1)]), ("send_after", [("next", 0)])):
        signals.clear(), events.clear()
        stop.write_text(f"r:part 1 {where}", encoding="utf-8")
        hook.around_publish(send("before the line"), "celery")
        module.record("r:part", 0, 0.5)
        assert signals == [] and not stop.exists()  # armed: the line is logged, nothing stops yet
        hook.around_publish(send("event"), "celeryev")  # a task event passes
        hook.around_publish(send("next"), "")
        hook.around_publish(send("later"), "")
        assert signals == [hook.signal.SIGSTOP]
        assert events == [("before the line", 0), ("event", 0), *expected, ("later", 1)]
        (tmp_path / "runs.log").unlink()


def test_the_stop_line_hook_stops_at_the_start_or_end_of_the_named_task(monkeypatch, tmp_path):
    from types import SimpleNamespace

    hook, module, signals, stop = hooked(monkeypatch, tmp_path)
    report = SimpleNamespace(name="ex.report")
    stop.write_text("task:ex.report:ea start", encoding="utf-8")
    hook.on_task("end", task=report, args=("ea", 2.0))
    hook.on_task("start", task=SimpleNamespace(name="ex.report_part"), args=("ea", 0))
    hook.on_task("start", task=report, args=("eb", 2.0))
    assert signals == []
    hook.on_task("start", task=report, args=("ea", 2.0))
    assert signals == [hook.signal.SIGSTOP] and not stop.exists()
    hook.on_task("start", task=report, args=("ea", 2.0))
    assert len(signals) == 1  # once


def test_the_hook_makes_the_waits_of_a_listed_report_virtual_and_still_logs_its_parts(monkeypatch, tmp_path):
    hook, module, signals, stop = hooked(monkeypatch, tmp_path)
    slept, logged = [], []
    monkeypatch.setattr(hook.time, "sleep", slept.append)
    monkeypatch.setattr(hook.tasks, "record", lambda label, *details: logged.append((label, *details)))
    (tmp_path / "runs.log.virtual").write_text("z", encoding="utf-8")
    hook.crunch("z", 0, 290.0)
    hook.crunch("a", 0, 0.5)
    assert slept == [0.5] and logged == [("z:part", 0, 290.0), ("a:part", 0, 0.5)]
    assert hook.tasks.crunch.__code__ is hook._crunch.__code__  # a module that imported crunch by name gets it too


def test_a_part_as_long_as_the_timeout_fails_the_longest_part_criterion():
    run = Run()
    checks.expect_parts_short(run, ["a"], [[(0, 0.5), (1, 2.99)]], hidden=False)
    checks.expect_parts_short(run, ["z"], [[(0, 0.5)] * 20 + [(20, 290.0)]], hidden=True)
    assert [criterion["passed"] for criterion in run.criteria] == [True, False]


def test_a_crash_point_asks_its_stop_waits_for_it_then_kills_and_never_stops_a_later_report(monkeypatch, tmp_path):
    logged: list = []
    killed: list = []

    class CrashStack(StopStack):
        def send_task(self, name, args):
            super().send_task(name, args)
            logged.append((0, 1.0, 100.0))  # what the stopped process does: logs, takes the stop file, stops
            (tmp_path / checks.STOP_FILE).unlink()
            (tmp_path / checks.STOPPED_FILE).write_text("1")

    class Worker:
        def kill(self, group=False):
            killed.append(len(logged))
            logged.extend([(0, 1.0, time.time() + 1), (1, 1.0, time.time() + 2)])

    stack = CrashStack(tmp_path)
    stack.workers = [Worker()]
    monkeypatch.setattr(checks, "parts", lambda stack_, label: [(number, seconds) for number, seconds, _ in logged])
    monkeypatch.setattr(checks, "logged_parts", lambda stack_, labels: [(s, at) for _, s, at in logged])
    monkeypatch.setattr(checks.helpers, "wait", lambda seconds: None)
    monkeypatch.setattr(checks, "until", lambda condition, timeout, step=0: condition())
    left, found = checks.crash_at(stack, "pb", 2.0, "pb:part 2 send_before")
    assert stack.sent == [(("pb", 2.0), "pb:part 2 send_before")]
    assert killed == [1] and (left, len(found)) == (2.0, 3)
    assert not (tmp_path / checks.STOP_FILE).exists() and not (tmp_path / checks.STOPPED_FILE).exists()
