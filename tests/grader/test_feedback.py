"""A learner's feedback report: a rejected file says what to do next; a task that never finished says so."""
from __future__ import annotations

from celerylab.grader.entry import Entry
from celerylab.grader.feedback import render


def rejected(key: str, **values) -> Entry:
    return Entry.from_record({"status": "rejected", "reason": {"key": key, "values": values}}, "ana")


def test_a_damaged_file_gets_a_next_step_in_the_learners_language():
    portuguese = render(rejected("grading.reason.invalid_json", error="x"), [], "pt")
    assert "não é JSON válido" in portuguese and "O que fazer" in portuguese and "exercises/pt/" in portuguese
    assert "What to do" in render(rejected("grading.reason.not_notebook"), [], "en")


def test_a_reason_the_learner_cannot_fix_gets_no_such_advice():
    assert "O que fazer" not in render(rejected("grading.reason.changed"), [], "pt")


def test_a_criterion_whose_task_never_finished_says_so_in_the_report():
    record = {"status": "graded", "lesson": "l90_fixture", "max": 2, "total": 0, "exercises": {"l90.double": {
        "points": 0, "max": 2, "criteria": [{"key": "c", "expected": "'SUCCESS'", "observed": "['PENDING', 'PENDING']",
                                             "passed": False, "labels": {"pt": "dobro", "en": "double"}}]}}}
    from grading_files import FIXTURE_COURSE

    exercises = FIXTURE_COURSE.all_exercises()
    assert "did not finish within the check's time limit" in render(Entry.from_record(record, "ana"), exercises, "en")
