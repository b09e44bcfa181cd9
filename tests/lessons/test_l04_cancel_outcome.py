"""Lesson 04's cancel check: an uncancelled report's pages are timed by the database's clock at its writes to the row
(one page that spares its sleep shows), and a cancelled report's result must name the pages it did."""
from __future__ import annotations

import time

import pytest
from celery import Celery

from celerylab import appdb
from celerylab.lessons.l04_results import checks, helpers, jobs

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


@pytest.mark.parametrize(("result", "says"), [
    ({"cancelled_after": 2, "students": 10}, True),  # the solution's: pages begun
    ({"students": 1, "total": 10, "cancelled": True}, True),  # whole pages, stopped inside page 2
    ({"students": 10}, False),  # the full report
    ({"students": 10, "cancelled": True}, False),  # True equals 1, and is no page count
    ("cancelled", False),
])
def test_a_cancelled_result_must_name_the_pages_done(result, says):
    assert checks.says_how_far(result, progress=2) is says


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
    assert all(checks.says_how_far(result, progress=2) for _state, result in held) is says
    assert (checks.shown_outcome(held, 2) == ["CANCELLED", {"students": 10}]) is (stored[:1] == [
        ("CANCELLED", {"students": 10})])
