"""Lesson 04's held reads: a request naming a job has the route's first look at its unfinished result held until the
job's row is finished, once; the value returned is the one read before."""
from __future__ import annotations

import asyncio
import json
from types import SimpleNamespace

import pytest

from celerylab.lessons.l04_results import held_reads


class Backend(SimpleNamespace):
    """What held_get uses of a RedisBackend: its client, its key for a task, and how it decodes a stored value."""

    def get_key_for_task(self, task_id: str) -> bytes:
        return f"celery-task-meta-{task_id}".encode()

    @staticmethod
    def decode_result(value: bytes) -> dict:
        return json.loads(value)


@pytest.fixture
def rows(monkeypatch):
    """The job table as held_reads reads it: each jobs.get of a job answers its next state; reads counted."""
    states = {"job": iter(["queued", "running", "done"])}
    reads: list[str] = []

    def get(job_id: str, db=None):
        reads.append(job_id)
        return {"state": next(states[job_id], "done")}

    monkeypatch.setattr(held_reads.jobs, "get", get)
    monkeypatch.setattr(held_reads, "_armed", set())
    return reads


def backend_with(value: bytes | None) -> Backend:
    return Backend(client=SimpleNamespace(get=lambda key: value))


def test_an_armed_read_of_an_unfinished_result_waits_for_the_finished_row_and_returns_what_it_read(rows):
    backend = backend_with(None)  # no result yet: PENDING
    held_reads.arm("job")
    assert held_reads.held_get(backend, backend.get_key_for_task("job")) is None
    assert rows == ["job", "job", "job"]  # queued, running, done: held until the row finished


def test_a_job_is_held_once_and_only_when_armed(rows):
    backend = backend_with(None)
    held_reads.held_get(backend, backend.get_key_for_task("job"))
    assert rows == []  # not armed: the route reads as it would anywhere
    held_reads.arm("job")
    held_reads.held_get(backend, backend.get_key_for_task("job"))
    held_reads.held_get(backend, backend.get_key_for_task("job"))
    assert len(rows) == 3  # the second read is not held


def test_a_finished_result_is_not_held(rows):
    backend = backend_with(json.dumps({"status": "SUCCESS", "result": 1}).encode())
    held_reads.arm("job")
    held_reads.held_get(backend, backend.get_key_for_task("job"))
    assert rows == []


def test_the_header_arms_the_job_it_names_before_the_route_runs(rows):
    seen = []

    async def route(scope, receive, send):
        seen.append(set(held_reads._armed))

    app = held_reads.serve(route)
    asyncio.run(app({"type": "http", "headers": [(held_reads.HEADER.encode(), b"job")]}, None, None))
    asyncio.run(app({"type": "http", "headers": [(b"accept", b"*/*")]}, None, None))
    assert seen == [{"job"}, {"job"}]  # armed by the first request; the second names none and arms nothing new
