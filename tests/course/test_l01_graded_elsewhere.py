"""Lesson 01's "new worker on another machine" under `celerylab grade`, through the job sandbox: answers that keep
their idempotency marker on the worker's own disk (/tmp) are rejected there too, not only by the self-check."""
from __future__ import annotations

import json
from pathlib import Path

import nbformat
import pytest

from celerylab import wrong_answers
from celerylab.course import Course
from celerylab.grader.batch import Options, grade

pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.timeout(900)]

ROOT = Path(__file__).resolve().parents[2]
COURSE = Course.at_checkout(ROOT)
MARKERS = {"l01.welcome_once": "welcome_once__tmp_marker", "l01.charge_once": "charge_once__tmp_marker"}
#: Where the other machine is what rejects the marker. welcome_once's marker answer sends the task id as its
#: Idempotency-Key, which the statement's key rule (the event id whole) rejects before any deploy.
REJECTED_ON_ANOTHER_MACHINE = {"l01.charge_once"}


def with_answers(notebook, answers: dict[str, str]):
    """The exercises notebook with each answer cell of `answers` (exercise id -> module source) filled in."""
    for cell in notebook.cells:
        exercise = cell.metadata.get("celerylab", {}).get("exercise")
        if exercise in answers:
            cell.source = cell.source.partition("\n")[0] + "\n" + answers[exercise]
    return notebook


def test_tmp_markers_are_rejected_under_grade(tmp_path):
    lesson = COURSE.lessons_dir / "l01_retries"
    found = {answer.path.stem: answer for answer in wrong_answers.in_lesson(lesson)}
    notebook = nbformat.read(COURSE.notebook_path("l01_retries", "en", "exercises"), as_version=4)
    submissions = tmp_path / "in"
    submissions.mkdir()
    nbformat.write(with_answers(notebook, {exercise: found[name].path.read_text() for exercise, name in
                                           MARKERS.items()}), submissions / "markers.ipynb")
    out = tmp_path / "out"
    grade(submissions, Options(out=out, jobs=1, course=COURSE, show_progress=False))
    [entry] = json.loads((out / "gradebook.json").read_text())["submissions"].values()
    assert entry["status"] == "graded", entry
    feedback = (out / "feedback" / "markers.md").read_text()
    for exercise in MARKERS:
        section = feedback.split(f"## {exercise} ")[1].split("\n## ")[0]
        assert "Points: 0/" in section, section
        if exercise in REJECTED_ON_ANOTHER_MACHINE:
            assert "after a deploy" in section or "on another machine" in section, section
