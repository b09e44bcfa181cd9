"""The batch never stops and never loses an entry; preparation streams into the jobs (no process started here)."""
from __future__ import annotations

import errno
import json
import os

import nbformat
from grading_files import EXERCISES, FIXTURE_COURSE

import notebooks
from celerylab.checks.verdict import Verdict
from celerylab.grader import batch, job_supervisor
from celerylab.grader.batch import Options, grade
from celerylab.grader.spec import JobResult


def options(out, **extra) -> Options:
    return Options(out=out, exercises_dir=EXERCISES, course=FIXTURE_COURSE, show_progress=False, **extra)


def good_text(lang="pt") -> str:
    return nbformat.writes(notebooks.build(lang, "exercises"))


def test_a_folder_of_hostile_files_ends_as_one_rejection_each(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    os.mkfifo(subs / "fifo.ipynb")
    os.symlink("/dev/zero", subs / "zero.ipynb")
    os.symlink("loop.ipynb", subs / "loop.ipynb")
    (subs / "deep.ipynb").write_text("[" * 50_000 + "]" * 50_000)
    (subs / "minor.ipynb").write_text(json.dumps({**json.loads(good_text()), "nbformat_minor": "x"}))
    lesson_path = {**json.loads(good_text()), "metadata": {"celerylab": {"lesson": "../../etc", "variant": "exercises"}}}
    (subs / "path.ipynb").write_text(json.dumps(lesson_path))
    summary = grade(subs, options(tmp_path / "out"))
    book = json.loads((tmp_path / "out" / "gradebook.json").read_text())["submissions"]
    assert sorted(book) == ["deep", "fifo", "loop", "minor", "path", "zero"]
    assert (summary.rejected, summary.graded, summary.failed) == (6, 0, 0)
    assert all((tmp_path / "out" / "feedback" / f"{key}.md").exists() for key in book)
    assert book["path"]["reason"]["key"] == "grading.reason.unknown_lesson"
    again = grade(subs, options(tmp_path / "out"))
    assert again.skipped == 6


def test_a_grader_fault_on_one_file_is_an_entry_not_a_stop(tmp_path, monkeypatch):
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("a", "b", "c"):
        (subs / f"{name}.ipynb").write_text(good_text())
    real = batch.prepare

    def flaky(found, *args):
        if found.key == "b":
            raise RecursionError("maximum recursion depth exceeded")
        return real(found, *args)

    monkeypatch.setattr(batch, "prepare", flaky)
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: JobResult(verdicts={
        exercise: Verdict.from_record({"criteria": [{"passed": True}]}, exercise) for exercise in job.exercises}))
    summary = grade(subs, options(tmp_path / "out", jobs=2, exports=("canvas", "gradescope")))
    book = json.loads((tmp_path / "out" / "gradebook.json").read_text())["submissions"]
    assert (summary.graded, summary.failed) == (2, 1)
    assert not (tmp_path / "out" / "gradescope" / "b").exists() and (tmp_path / "out" / "gradescope" / "a").exists()
    canvas = (tmp_path / "out" / "canvas.csv").read_text(encoding="utf-8-sig").splitlines()
    assert "b,,,,," in canvas and "a,,,,,5" in canvas                  # not graded yet: blank, never 0
    assert book["b"]["status"] == "grader_failure" and "RecursionError" in book["b"]["reason"]["values"]["error"]
    assert book["a"]["total"] == 5


def test_the_first_job_starts_before_the_last_file_is_prepared(tmp_path, monkeypatch):
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("a", "b", "c"):
        (subs / f"{name}.ipynb").write_text(good_text())
    events, real = [], batch.prepare

    def prepare(found, *args):
        events.append(f"prepare {found.key}")
        return real(found, *args)

    def run_job(job):
        events.append("run")
        return JobResult()

    monkeypatch.setattr(batch, "prepare", prepare)
    monkeypatch.setattr(job_supervisor, "run_job", run_job)
    grade(subs, options(tmp_path / "out", jobs=1))
    assert events == ["prepare a", "run", "prepare b", "run", "prepare c", "run"]


def test_a_rejected_file_has_its_lessons_maximum_or_says_the_lesson_is_unknown(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "broken.ipynb").write_text('{"cells": [')
    good = json.loads(good_text())
    (subs / "twin.ipynb").write_text(json.dumps({**good, "cells": good["cells"] + [dict(good["cells"][0])]}))
    grade(subs, options(tmp_path / "out"))
    book = json.loads((tmp_path / "out" / "gradebook.json").read_text())["submissions"]
    assert (book["twin"]["lesson"], book["twin"]["max"], book["twin"]["total"]) == ("l90_fixture", 5, 0)
    assert (book["broken"]["lesson"], book["broken"]["max"]) == (None, None)
    broken = (tmp_path / "out" / "feedback" / "broken.md").read_text()
    assert "Devolutiva — lição desconhecida" in broken and "Nota:" not in broken and "0/0" not in broken
    assert "**Nota: 0/5**" in (tmp_path / "out" / "feedback" / "twin.md").read_text()
    rows = (tmp_path / "out" / "gradebook.csv").read_text(encoding="utf-8-sig").splitlines()
    assert next(row for row in rows if row.startswith("broken,")).split(",")[-3:-1] == ["0", ""]


def test_a_job_that_failed_for_the_grader_is_blank_in_the_exports(tmp_path, monkeypatch):
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "a.ipynb").write_text(good_text())
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: JobResult(log="Traceback ...", verdicts={
        exercise: Verdict.grader_failure(exercise, "the job ended before its check started")
        for exercise in job.exercises}))
    summary = grade(subs, options(tmp_path / "out", exports=("canvas", "gradescope")))
    entry = json.loads((tmp_path / "out" / "gradebook.json").read_text())["submissions"]["a"]
    assert summary.failed == 1 and (entry["status"], entry["lesson"]) == ("grader_failure", "l90_fixture")
    assert (tmp_path / "out" / "logs" / "a.log").read_text() == "Traceback ..."
    assert "a,,,,," in (tmp_path / "out" / "canvas.csv").read_text(encoding="utf-8-sig").splitlines()
    assert not (tmp_path / "out" / "gradescope" / "a").exists()


def test_a_graded_job_with_a_lost_exercise_keeps_its_log_beside_the_gradebook(tmp_path, monkeypatch):
    """A job died during a check (run_job then returns its log): the entry is graded, the exercise lost, and the
    instructor can read why in logs/KEY.log, where a grader failure's log goes."""
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "a.ipynb").write_text(good_text())
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: JobResult(log="--- job1.log\nKilled", verdicts={
        exercise: Verdict.lost(exercise) for exercise in job.exercises}))
    summary = grade(subs, options(tmp_path / "out"))
    entry = json.loads((tmp_path / "out" / "gradebook.json").read_text())["submissions"]["a"]
    assert summary.graded == 1 and entry["status"] == "graded"
    assert all(scored["crashed"] for scored in entry["exercises"].values())
    assert (tmp_path / "out" / "logs" / "a.log").read_text() == "--- job1.log\nKilled"
    assert entry["log"] == "logs/a.log"  # the entry points to it


def test_a_graded_job_whose_attempts_all_lived_points_to_no_log(tmp_path):
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "a.ipynb").write_text(good_text())
    grade(subs, options(tmp_path / "out"))
    entry = json.loads((tmp_path / "out" / "gradebook.json").read_text())["submissions"]["a"]
    assert entry["status"] == "graded" and "log" not in entry


def test_a_log_that_cannot_be_written_costs_no_entry(tmp_path, monkeypatch):
    subs = tmp_path / "subs"
    subs.mkdir()
    (subs / "a.ipynb").write_text(good_text())
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: JobResult(log="Killed", verdicts={
        exercise: Verdict.lost(exercise) for exercise in job.exercises}))

    def full_disk(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(batch, "keep_log", full_disk)
    summary = grade(subs, options(tmp_path / "out"))
    assert (summary.graded, summary.failed) == (1, 0)
    assert "log" not in json.loads((tmp_path / "out" / "gradebook.json").read_text())["submissions"]["a"]


def test_the_job_process_learns_a_course_outside_the_package_from_its_environment(monkeypatch, tmp_path):
    """The one place the course crosses a process boundary by environment: the job's (and its kernel's)."""
    from celerylab.course import LESSONS_ENV

    monkeypatch.setenv(LESSONS_ENV, "/somewhere/else")  # the grader's own: never passed on to a package course's job
    assert LESSONS_ENV not in job_supervisor.job_env(None, tmp_path)
    assert job_supervisor.job_env(str(FIXTURE_COURSE.lessons_dir), tmp_path)[LESSONS_ENV] == str(FIXTURE_COURSE.lessons_dir)


def test_a_batch_builds_no_course_of_its_own(monkeypatch, tmp_path):
    """The batch is handed its course (Options.course): preparing, scoring and the gradebook build none."""
    from celerylab.course import Course

    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("a", "b"):
        (subs / f"{name}.ipynb").write_text(good_text())
    (subs / "c.ipynb").write_text("{")
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: JobResult(verdicts={
        exercise: Verdict.from_record({"criteria": [{"passed": True}]}, exercise) for exercise in job.exercises}))
    given = options(tmp_path / "out")
    built = []
    real = Course.__init__
    monkeypatch.setattr(Course, "__init__", lambda self, *a, **k: built.append(a) or real(self, *a, **k))
    summary = grade(subs, given)
    assert (summary.graded, summary.rejected) == (2, 1) and built == []


def test_a_job_is_kept_from_every_solutions_folder_it_could_read(tmp_path, monkeypatch):
    from celerylab.course import CHECKOUT

    monkeypatch.chdir(tmp_path)  # the grader run from elsewhere than the checkout
    hidden = batch.hidden_folders(options(tmp_path / "out"))
    assert str((tmp_path / "out").resolve()) in hidden
    assert str(FIXTURE_COURSE.lessons_dir.parent / "solutions") in hidden     # the graded course's, beside its lessons
    assert str((CHECKOUT / "solutions").resolve()) in hidden                  # the package's, which a copy shares
