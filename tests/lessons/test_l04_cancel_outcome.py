"""Lesson 04's cancel check: an uncancelled report's pages are timed by the database's clock at its writes to the row
(one page that spares its sleep shows, and so do pages too long), and a cancelled report's result must name the pages
it did (one fewer than its progress when it stopped inside its last page, either within PAGE_EDGE of `step`) under
``cancelled_after`` (the last PROGRESS an Ignore leaves, under ``current``)."""
from __future__ import annotations

import time

import pytest
from celery import Celery

from celerylab import appdb
from celerylab.lessons.l04_results import check_cancel_at, checks, helpers, jobs

STEP = 0.1


class SqliteStack:
    """What the check needs of a stack for the job table: its URL and fresh connections."""

    def __init__(self, path) -> None:
        self.database_url = f"sqlite:///{path}"

    def db(self):
        return appdb.connect(self.database_url)


@pytest.fixture
def stack(tmp_path):
    stack = SqliteStack(tmp_path / "jobs.db")
    connection = stack.db()
    try:
        for sql in jobs.SCHEMA:
            appdb.execute(connection, sql)
    finally:
        connection.close()
    checks.log_progress_writes(stack)
    return stack


def report(stack, job_id: str, students: int, *, spare_last: bool = False, progress_at_end: bool = False) -> None:
    """A report's writes to its row, as the worker makes them: running, each page's progress, done."""
    connection = stack.db()
    try:
        jobs.create(job_id, "admin", "ex.report", connection)
        jobs.set_state(job_id, "running", connection, unless=jobs.FINISHED)
        for page in range(1, students + 1):
            if not progress_at_end:
                jobs.progress(job_id, page, students, connection)
            if not (spare_last and page == students):
                time.sleep(STEP)
            if progress_at_end:
                jobs.progress(job_id, page, students, connection)
        jobs.finish(job_id, {"students": students}, connection)
    finally:
        connection.close()


@pytest.mark.parametrize("progress_at_end", [False, True])
def test_a_report_that_sleeps_step_on_every_page_has_no_page_shorter(stack, progress_at_end):
    report(stack, "whole", 3, progress_at_end=progress_at_end)
    pages = checks.page_times(stack, "whole", 3)
    assert len(pages) == 3
    assert min(pages) >= STEP - checks.PAGE_CLOCK


def test_a_report_that_spares_its_last_page_shows_a_page_shorter_than_step(stack):
    report(stack, "spared", 3, spare_last=True)
    assert min(checks.page_times(stack, "spared", 3)) < STEP - checks.PAGE_CLOCK


def test_a_report_that_never_finished_has_no_page_times(stack):
    connection = stack.db()
    try:
        jobs.create("unfinished", "admin", "ex.report", connection)
        jobs.set_state("unfinished", "running", connection)
        jobs.progress("unfinished", 1, 3, connection)
    finally:
        connection.close()
    assert checks.page_times(stack, "unfinished", 3) == []


STEPS = [0.25, 0.6, 0.04]


@pytest.mark.parametrize("step", STEPS)
def test_pages_of_step_and_their_writes_last_step(step):
    assert checks.pages_last_step([step + 0.015, step + 0.02, step + 0.01, step + 0.04], step)


@pytest.mark.parametrize("step", STEPS)
def test_a_loaded_machine_may_stall_one_page(step):
    assert checks.pages_last_step([step + 0.01] * 10 + [step + 0.6, step + 0.02], step)


@pytest.mark.parametrize("step", STEPS)
def test_a_loaded_machine_may_lengthen_most_pages_of_a_short_report(step):
    assert checks.pages_last_step([step + 0.025, step + 0.15, step + 0.31], step)


def test_on_a_loaded_machine_the_shortest_page_may_run_over_by_what_the_load_adds_to_the_lessons_own(monkeypatch):
    """Two checks at once on 2 cores: every page of a right answer's 3-page report at 0.1 s lasted 0.203 s or more;
    the lesson's own report, timed on the same worker just after, shows what the load adds."""
    monkeypatch.setattr(checks, "reference_extra", lambda stack, step: 0.05)
    pages = [0.203, 0.21, 0.22]
    assert not checks.pages_last_step(pages, 0.1)
    slack = checks.page_slack(None, pages, 0.1)
    assert slack == pytest.approx(checks.PAGE_SLACK + 0.1)
    assert checks.pages_last_step(pages, 0.1, slack)


def test_on_an_idle_machine_pages_too_long_stay_too_long(monkeypatch):
    monkeypatch.setattr(checks, "reference_extra", lambda stack, step: 0.01)
    pages = [0.4, 0.41, 0.4, 0.42]  # 0.2 s slices until step has passed
    assert not checks.pages_last_step(pages, 0.25, checks.page_slack(None, pages, 0.25))


def test_pages_within_the_slack_need_no_reference(monkeypatch):
    monkeypatch.setattr(checks, "reference_extra", lambda stack, step: pytest.fail("timed a reference"))
    assert checks.page_slack(None, [0.26, 0.3, 0.27], 0.25) == checks.PAGE_SLACK


@pytest.mark.parametrize(("pages", "step"), [
    ([0.4, 0.41, 0.4, 0.42], 0.25),  # 0.2 s slices until step has passed
    ([0.2, 0.21, 0.2, 0.2, 0.2, 0.21], 0.04),  # the same at a small step
    ([0.26, 0.25, 2.0, 0.26], 0.25),  # one page more than 1.5 s too long
    ([0.2, 0.21, 0.2, 0.21], 0.25),  # int(step * 10) slices of 0.1 s
    ([0.51, 0.5, 0.51], 0.6),  # a sleep capped at 0.5 s
    ([], 0.25),  # a report without every mark
])
def test_pages_too_long_or_too_short_do_not_last_step(pages, step):
    assert not checks.pages_last_step(pages, step)


BETWEEN, INSIDE, EDGE = 0.26, 0.1, 0.23  # how long page 2 (of 0.25 s) had lasted when the row turned cancelled


@pytest.mark.parametrize(("result", "lasted", "says"), [
    ({"cancelled_after": 2, "students": 10}, BETWEEN, True),  # the solution's: pages begun, stopped between pages
    ({"cancelled_after": 1, "students": 10}, INSIDE, True),  # whole pages, stopped inside page 2
    ({"cancelled_after": 2, "students": 10}, INSIDE, False),  # page 2 counted, though it stopped 0.15 s before its end
    ({"cancelled_after": 2, "students": 10}, EDGE, True),  # within PAGE_EDGE of step: either count
    ({"cancelled_after": 1, "students": 10}, EDGE, True),
    ({"students": 1, "total": 10, "cancelled": True}, INSIDE, False),  # a count among the values, under no key named
    ({"students": 1, "total": 10}, INSIDE, False),  # reads as a full report of 1 student
    ({f"page_{n}": n for n in range(11)} | {"cancelled": "yes"}, INSIDE, False),  # every page number among its values
    ({"cancelled_after": True, "students": 10}, INSIDE, False),  # True equals 1, and is no page count
    ({"cancelled_after": 1, "students": 10}, BETWEEN, False),  # one fewer, though page 2 was done whole
    ({"students": 10}, INSIDE, False),  # the full report
    ({"students": 1}, INSIDE, False),  # the pages done in a full report's shape: a full 1-student report
    ({"students": 2, "path": "/reports/report_p.pdf"}, BETWEEN, False),  # the lesson's own full report's shape
    ({"students": 10, "cancelled": True}, INSIDE, False),  # True equals 1, and is no page count
    ("cancelled", INSIDE, False),
])
def test_a_cancelled_result_must_name_the_pages_done(result, lasted, says):
    assert checks.says_how_far("SUCCESS", result, checks.pages_done(2, lasted, 0.25)) is says


@pytest.mark.parametrize(("state", "result", "says"), [
    ("PROGRESS", {"current": 2, "total": 10}, True),  # the last PROGRESS an Ignore leaves: its current
    ("PROGRESS", {"cancelled_after": 2}, False),
    ("CANCELLED", {"current": 2, "total": 10}, False),  # a state of its own: the count under cancelled_after
    ("CANCELLED", {"cancelled_after": 2}, True),
])
def test_the_count_is_read_under_its_key(state, result, says):
    assert checks.says_how_far(state, result, [2]) is says


def test_a_request_during_the_last_page_of_a_report_that_looks_after_it_did_every_page():
    assert checks.says_how_far("SUCCESS", {"cancelled_after": 10, "students": 10}, checks.pages_done(10, 0.26, 0.25))


def test_a_report_that_saw_a_late_request_inside_its_page_may_count_it_either_way():
    # the request came in the page's last PAGE_EDGE: a report that looked inside the page by its own clock may turn
    # its row after `step` on a loaded machine (right answers measured at 9 of 10 pages rejected for giving 8)
    assert checks.pages_done(9, 0.26, 0.25, late=True) == [8, 9]
    assert checks.pages_done(9, 0.26, 0.25) == [9]
    assert checks.pages_done(0, None, 0.25, late=True) == [0]


def test_the_workers_hook_flags_the_job_right_after_the_requested_pages_progress(stack, tmp_path, monkeypatch):
    request = tmp_path / checks.HOOK_FILE
    monkeypatch.setenv(check_cancel_at.REQUEST_ENV, str(request))
    monkeypatch.setenv(appdb.DATABASE_URL_ENV, stack.database_url)
    monkeypatch.setattr(jobs, "_run", jobs._run)  # restored after the test: the hook wraps it
    check_cancel_at.patch()
    check_cancel_at.patch()  # once only
    jobs.create("hooked", "admin", "ex.report")
    request.write_text("hooked 2", encoding="utf-8")
    jobs.progress("hooked", 1, 3)
    assert not jobs.cancel_requested("hooked")
    before = time.monotonic()
    jobs.progress("hooked", 2, 3)
    assert jobs.cancel_requested("hooked")
    flagged = float((tmp_path / f"{checks.HOOK_FILE}{check_cancel_at.FLAGGED_SUFFIX}").read_text(encoding="utf-8"))
    assert before <= flagged <= time.monotonic()
    (tmp_path / f"{checks.HOOK_FILE}{check_cancel_at.FLAGGED_SUFFIX}").unlink()
    jobs.progress("hooked", 2, 3)  # page 2 written again: flagged once only
    assert not (tmp_path / f"{checks.HOOK_FILE}{check_cancel_at.FLAGGED_SUFFIX}").exists()
    time.sleep(0.05)
    assert jobs.cancel_requested("hooked")  # the look that finds it: its page and how long after that page's write
    assert checks.first_look(request, 2) >= 0.05
    assert not request.exists()  # the watch ended


def test_a_look_that_found_the_flag_inside_the_page_allows_either_count_once_the_row_turned_after_step():
    # a task that saw the request 0.1 s into a 0.25 s page, its writes slowed past `step` by a loaded machine (or
    # one that finished its page), may give the page as not done or done; one whose look came after `step` did it
    assert checks.pages_done(2, 0.27, 0.25, looked=0.1) == [1, 2]
    assert checks.pages_done(2, 0.27, 0.25, looked=0.26) == [2]
    assert checks.pages_done(2, 0.12, 0.25, looked=0.1) == [1]


def test_the_hook_flags_no_other_job_or_page(stack, tmp_path, monkeypatch):
    request = tmp_path / checks.HOOK_FILE
    monkeypatch.setenv(check_cancel_at.REQUEST_ENV, str(request))
    monkeypatch.setenv(appdb.DATABASE_URL_ENV, stack.database_url)
    monkeypatch.setattr(jobs, "_run", jobs._run)
    check_cancel_at.patch()
    for job_id in ("other", "hooked"):
        jobs.create(job_id, "admin", "ex.report")
    request.write_text("hooked 3", encoding="utf-8")
    jobs.progress("other", 3, 3)
    jobs.progress("hooked", 2, 3)
    assert not jobs.cancel_requested("other") and not jobs.cancel_requested("hooked")
    assert checks.first_look(request, 2) is None  # no look found a flag


def cancelled_after(stack, job_id: str, seconds: float) -> None:
    """A report whose row reaches page 2, then turns cancelled `seconds` later (by the database's clock)."""
    connection = stack.db()
    try:
        jobs.create(job_id, "admin", "ex.report", connection)
        jobs.set_state(job_id, "running", connection, unless=jobs.FINISHED)
        jobs.progress(job_id, 1, 10, connection)
        time.sleep(STEP)
        jobs.progress(job_id, 2, 10, connection)
        time.sleep(seconds)
        jobs.set_state(job_id, "cancelled", connection)
    finally:
        connection.close()


def test_a_report_that_turns_cancelled_before_its_page_lasted_step_stopped_inside_it(stack):
    cancelled_after(stack, "inside", STEP / 5)
    lasted = checks.stopped_inside(stack, "inside", 2)
    assert lasted < STEP - checks.PAGE_EDGE
    assert checks.pages_done(2, lasted, STEP) == [1]


def test_a_report_that_turns_cancelled_after_a_whole_page_did_that_page(stack):
    # slept its page, then looked at the flag: the look itself takes time (9 ms or more measured), and SQLite's clock
    # counts whole milliseconds, so a turn at exactly STEP could read a millisecond short
    cancelled_after(stack, "between", STEP + 0.005)
    lasted = checks.stopped_inside(stack, "between", 2)
    assert lasted >= STEP
    assert checks.pages_done(2, lasted, STEP) == [2]


def test_a_report_with_no_page_did_none(stack):
    assert checks.pages_done(0, None, STEP) == [0]
    assert checks.stopped_inside(stack, "none", 0) is None


class Messages:
    """A subscription that already holds the messages the backend published."""

    def __init__(self, messages: list) -> None:
        self.messages = messages

    def subscribe(self, channel: str) -> None:
        self.messages.insert(0, {"type": "subscribe", "data": 1})

    def get_message(self, timeout: float = 0.0):
        return self.messages.pop(0) if self.messages else None

    def close(self) -> None:
        pass


def test_what_a_report_returned_is_kept_from_the_backends_channel(monkeypatch):
    app = Celery(backend="cache+memory://")

    def published(status: str, result) -> dict:
        return {"type": "message", "data": app.backend.encode({"status": status, "result": result, "task_id": "j"})}

    messages = Messages([published("PROGRESS", {"current": 1, "total": 3}),
                         published("PROGRESS", {"current": 2, "total": 3}),
                         published("SUCCESS", {"students": 3})])
    monkeypatch.setattr(helpers, "redis_client", lambda stack: type("R", (), {"pubsub": lambda self: messages})())
    monkeypatch.setattr(helpers, "result_key", lambda stack, job_id: f"celery-task-meta-{job_id}")
    stack = type("S", (), {"app": app})()
    seen = checks.ProgressSeen(stack, "j")
    assert seen.published() == 2
    assert seen.returned == [["SUCCESS", {"students": 3}]]
    assert seen.outcome() == [["SUCCESS", {"students": 3}]]


def seen_with(monkeypatch, published: list[tuple[str, object]]) -> checks.ProgressSeen:
    """A ProgressSeen whose channel already carried these (state, result) pairs, read to its end."""
    app = Celery(backend="cache+memory://")
    messages = Messages([{"type": "message", "data": app.backend.encode(
        {"status": status, "result": result, "task_id": "j"})} for status, result in published])
    monkeypatch.setattr(helpers, "redis_client", lambda stack: type("R", (), {"pubsub": lambda self: messages})())
    monkeypatch.setattr(helpers, "result_key", lambda stack, job_id: f"celery-task-meta-{job_id}")
    seen = checks.ProgressSeen(type("S", (), {"app": app})(), "j")
    seen.published()
    return seen


PAGES = [("PROGRESS", {"current": 1, "total": 10}), ("PROGRESS", {"current": 2, "total": 10})]


@pytest.mark.parametrize(("stored", "says"), [
    ([("SUCCESS", {"cancelled_after": 2, "students": 10})], True),  # the solution
    ([], True),  # Ignore: the last PROGRESS stays, on the page the progress stayed at
    ([("SUCCESS", {"students": 10})], False),  # the full report
    ([("CANCELLED", {"students": 10})], False),  # a state of its own holding the full report, then Ignore
    ([("CANCELLED", {"students": 10}), ("PROGRESS", {"current": 2, "total": 10})], False),  # covered up after
    ([("CANCELLED", {"cancelled_after": 2})], True),  # a state of its own that says how far
])
def test_every_state_a_cancelled_report_left_in_the_backend_must_say_how_far(monkeypatch, stored, says):
    held = seen_with(monkeypatch, PAGES + stored).outcome()
    assert all(checks.says_how_far(state, result, [2]) for state, result in held) is says
    assert (checks.shown_outcome(held, [2]) == ["CANCELLED", {"students": 10}]) is (stored[:1] == [
        ("CANCELLED", {"students": 10})])


def test_an_exception_state_stored_with_a_dict_is_shown_as_stored(monkeypatch):
    """REVOKED stored with update_state and a dict that is no exception information, then Ignore: the check reads
    the dict (Celery's decode_result would raise ValueError turning it into an exception) and shows it."""
    revoked = ("REVOKED", {"reason": "cancelled", "total": 10})
    held = seen_with(monkeypatch, [*PAGES, revoked]).outcome()
    assert held == [list(revoked)]
    assert not checks.says_how_far(*held[0], [2])
    assert checks.shown_outcome(held, [2]) == list(revoked)
