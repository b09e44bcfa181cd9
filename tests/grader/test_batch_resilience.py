"""What a learner's file or a full disk can do to the batch: a date no calendar holds, ENOSPC at a save, a folder
named exercises/ among the submissions. Each ends as a plain entry; the batch finishes with every entry."""
from __future__ import annotations

import errno
import json
import shutil

import nbformat
import pytest
from grading_files import COURSE, EXERCISES, FIXTURE_COURSE

import notebooks
from celerylab.course import Course
from celerylab.grader import batch, gradebook, job_supervisor
from celerylab.grader.batch import Options, grade
from celerylab.grader.intake import Found
from celerylab.grader.policy import stamp
from celerylab.grader.prepare import Limits, prepare
from celerylab.grader.spec import JobResult
from celerylab.grader.submission import Rejected

YEAR_33658 = 1_000_000_000_000.0  # seconds since 1970: the mtime a learner's archive carried


def test_an_mtime_no_date_can_hold_is_no_date():
    assert stamp(YEAR_33658) is None
    assert stamp(0).startswith("1970-01-01") or stamp(0).startswith("1969-12-31")


def test_a_full_disk_at_a_save_keeps_the_previous_gradebook_and_the_batch_goes_on(tmp_path, monkeypatch, capsys):
    subs, out = tmp_path / "subs", tmp_path / "out"
    subs.mkdir()
    for name in ("a", "b", "c"):
        (subs / f"{name}.ipynb").write_text(nbformat.writes(notebooks.build("pt", "exercises")))
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: JobResult(verdicts={}))
    monkeypatch.setattr(batch, "SAVE_EVERY", 0.0)
    real, calls = gradebook.write_json, []

    def full_disk(path, data):
        calls.append(path)
        if len(calls) <= 2:  # the first saves meet a full disk (a job had filled it)
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(path, data)

    monkeypatch.setattr(gradebook, "write_json", full_disk)
    summary = grade(subs, Options(out=out, exercises_dir=EXERCISES, course=FIXTURE_COURSE, show_progress=False))
    assert summary.graded == 3
    assert sorted(json.loads((out / "gradebook.json").read_text())["submissions"]) == ["a", "b", "c"]
    assert "No space left on device" in capsys.readouterr().err


def test_a_learners_exercises_folder_never_becomes_the_canonical_notebook(tmp_path):
    """The instructor grades from the submissions folder, where a learner left ``exercises/`` holding a notebook
    of the lesson with its checks emptied: it became every submission's canonical notebook (checks included)."""
    shutil.copytree(COURSE, tmp_path / "course")  # a course with no exercises/ beside it
    subs = tmp_path / "subs"
    planted = notebooks.build("pt", "exercises")
    for cell in planted.cells:
        if cell.cell_type == "code" and "check(" in cell.source:
            cell.source = "pass"
    (subs / "exercises" / "pt").mkdir(parents=True)
    (subs / "exercises" / "pt" / "90_fixture.ipynb").write_text(nbformat.writes(planted))
    (subs / "ana.ipynb").write_text(nbformat.writes(notebooks.build("pt", "exercises")))
    course = Course.at(tmp_path / "course", output_root=subs)  # as when graded from there without a checkout
    with pytest.raises(Rejected) as rejected:
        prepare(Found(subs / "ana.ipynb", "ana", "ana.ipynb"), subs, None, course, Limits())
    assert rejected.value.key == "grading.reason.unknown_lesson"
    assert prepare(Found(subs / "ana.ipynb", "ana", "ana.ipynb"), subs, EXERCISES, course, Limits()).job.notebook


def test_without_the_sandbox_every_entry_says_so(tmp_path, monkeypatch):
    """--unsafe-no-sandbox (Options.sandbox=False) is the only way to run unconfined, and each entry records it."""
    subs = tmp_path / "subs"
    subs.mkdir()
    for name in ("a", "b"):
        (subs / f"{name}.ipynb").write_text(nbformat.writes(notebooks.build("pt", "exercises")))
    asked = []

    def unconfined(job):
        asked.append(job.confine)
        return JobResult(verdicts={}, confinement=job_supervisor.UNSAFE if not job.confine else None)

    monkeypatch.setattr(job_supervisor, "run_job", unconfined)
    out = tmp_path / "out"
    grade(subs, Options(out=out, exercises_dir=EXERCISES, course=FIXTURE_COURSE, show_progress=False, sandbox=False))
    book = json.loads((out / "gradebook.json").read_text())["submissions"]
    assert asked == [False, False]
    assert [entry["isolation"]["unsafe"] for entry in book.values()] == [True, True]
    assert Options(out=out).sandbox is True  # confined unless asked otherwise
