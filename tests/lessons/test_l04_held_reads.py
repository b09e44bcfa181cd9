"""Lesson 04's held reads: a request naming a job has the route's second read of it (its row or its result) wait
until the job's row is finished, once: the job finishes between the route's first read and its next."""
from __future__ import annotations

import asyncio
from types import SimpleNamespace

import pytest

from celerylab.lessons.l04_results import held_reads

JOB = "5d0b1f3e-9a1c-4c53-bf7e-2f7d2f0b6a11"  # ids are uuids: none is a word of the SQL


class Backend(SimpleNamespace):
    """What held_get uses of a RedisBackend: its key for a task."""

    def get_key_for_task(self, task_id: str) -> bytes:
        return f"celery-task-meta-{task_id}".encode()


@pytest.fixture
def table(monkeypatch):
    """The job table and the result backend as the route reads them: each uncounted poll of the row (what a held
    read does) answers the job's next state; the reads that reach the database or Redis are logged in order."""
    states = iter(["queued", "running", "done"])
    log: list[str] = []

    def get(job_id: str, db=None):
        log.append("poll")
        return {"state": next(states, "done")}

    def execute(connection, sql, params=()):
        log.append(f"sql {params[0] if params else ''}")

    monkeypatch.setattr(held_reads.jobs, "get", get)
    monkeypatch.setattr(held_reads, "_execute", execute)
    monkeypatch.setattr(held_reads, "_read", lambda backend, key: log.append(f"redis {key.decode()}"))
    monkeypatch.setattr(held_reads, "_armed", {})
    return log


def select(job_id: str) -> None:
    held_reads.held_execute(None, "SELECT state FROM jobs WHERE id = ?", (job_id,))


def test_the_second_read_waits_for_the_finished_row_whichever_reads_come_first(table):
    backend = Backend()
    held_reads.arm(JOB)
    select(JOB)
    held_reads.held_get(backend, backend.get_key_for_task(JOB))
    assert table == [f"sql {JOB}", "poll", "poll", "poll", f"redis celery-task-meta-{JOB}"]  # queued, running, done
    table.clear()
    held_reads.arm(JOB)
    held_reads.held_get(backend, backend.get_key_for_task(JOB))
    select(JOB)
    assert table == [f"redis celery-task-meta-{JOB}", "poll", f"sql {JOB}"]  # already done: no wait


def test_two_reads_of_the_row_are_held_too(table):
    held_reads.arm(JOB)
    select(JOB)
    select(JOB)
    assert table == [f"sql {JOB}", "poll", "poll", "poll", f"sql {JOB}"]


def test_a_job_is_held_once_and_only_when_armed(table):
    select(JOB)
    select(JOB)
    assert table == [f"sql {JOB}", f"sql {JOB}"]  # not armed: the route reads as it would anywhere
    held_reads.arm(JOB)
    for _ in range(4):
        select(JOB)
    assert table.count("poll") == 3  # only the armed request's second read waits


def test_reads_of_other_jobs_and_writes_are_not_counted(table):
    held_reads.arm(JOB)
    select("other")
    held_reads.held_execute(None, "UPDATE jobs SET state = 'done' WHERE id = ?", (JOB,))
    select(JOB)
    assert "poll" not in table  # the first read of the armed job is still to come after them
    select(JOB)
    assert "poll" in table


def test_the_header_arms_the_job_it_names_before_the_route_runs(table):
    seen = []

    async def route(scope, receive, send):
        seen.append(set(held_reads._armed))

    app = held_reads.serve(route)
    asyncio.run(app({"type": "http", "headers": [(held_reads.HEADER.encode(), JOB.encode())]}, None, None))
    asyncio.run(app({"type": "http", "headers": [(b"accept", b"*/*")]}, None, None))
    assert seen == [{JOB}, {JOB}]  # armed by the first request; the second names none and arms nothing new
