"""In the grading job a check's lone worker starts without mingle; stacks of several workers keep it."""
from __future__ import annotations

import pytest
from grading_files import FIXTURE_COURSE

from celerylab.checks.check_run import CheckRun
from celerylab.grader import lone_worker
from celerylab.stack import Stack, StackSpec, WorkerSpec


@pytest.fixture
def started(monkeypatch, tmp_path):
    """The specs the checks' stacks start with, once the job installed the change (undone after the test)."""
    specs: list[StackSpec] = []
    monkeypatch.setattr(CheckRun, "stack", CheckRun.stack)
    monkeypatch.setattr(Stack, "start", classmethod(lambda cls, spec: specs.append(spec)))
    lone_worker.install()
    lone_worker.install()  # twice: still one flag
    run = CheckRun(FIXTURE_COURSE.find_exercise("l90.double"), tmp_path)
    return run, specs


def test_a_checks_lone_worker_starts_without_mingle(started):
    run, specs = started
    lone = WorkerSpec(pool="prefork", concurrency=2, extra_args=("--without-heartbeat",))
    run.stack()
    run.stack(workers=1)
    run.stack(StackSpec("x", workers=(lone,)))
    assert [spec.worker_specs()[0].extra_args for spec in specs] == [
        ("--without-mingle",), ("--without-mingle",), ("--without-heartbeat", "--without-mingle")]
    assert (specs[2].worker_specs()[0].pool, specs[2].worker_specs()[0].concurrency) == ("prefork", 2)
    assert {spec.app for spec in specs} == {"ex_double"} and specs[0].pythonpath == (run.workdir,)


def test_several_workers_keep_mingle_and_a_spec_that_turns_it_off_is_kept(started):
    run, specs = started
    run.stack(workers=2)
    run.stack(workers=(WorkerSpec(), WorkerSpec()))
    run.stack(workers=(WorkerSpec(extra_args=(lone_worker.WITHOUT_MINGLE,)),))
    assert [[worker.extra_args for worker in spec.worker_specs()] for spec in specs] == [
        [(), ()], [(), ()], [("--without-mingle",)]]
