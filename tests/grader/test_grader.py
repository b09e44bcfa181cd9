"""The batch grader on good, partial and hostile submissions: exact points, reasons, feedback, re-runs."""
from __future__ import annotations

import json
from pathlib import Path

import psutil
import pytest
import submissions
from grading_files import EXERCISES, FIXTURE_COURSE

from celerylab.grader.batch import Options, grade
from celerylab.grader.prepare import Limits

pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.timeout(900)]  # 20 notebooks, each on live stacks
LIMITS = Limits(cell_timeout=20, notebook_timeout=120, check_timeout=60, output_limit=1024 * 1024)


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    folder = submissions.write_all(tmp_path_factory.mktemp("subs") / "in")
    out = tmp_path_factory.mktemp("out")
    options = Options(out=out, jobs=2, exercises_dir=EXERCISES, course=FIXTURE_COURSE, limits=LIMITS, show_progress=False)
    summary = grade(folder, options)
    book = json.loads((out / "gradebook.json").read_text())["submissions"]
    return folder, options, summary, book


def test_every_submission_gets_exactly_its_points(graded):
    _, _, summary, book = graded
    assert sorted(book) == sorted(submissions.CASES)
    got = {name: ({k: v["points"] for k, v in entry["exercises"].items()}, entry["status"])
           for name, entry in book.items()}
    want = {name: (points, status) for name, (_, points, status) in submissions.CASES.items()}
    assert got == want
    assert (summary.graded, summary.rejected, summary.failed) == (16, 5, 0)


def test_rejections_say_why(graded):
    book = graded[3]
    reasons = {name: (entry.get("reason") or {}).get("key") for name, entry in book.items()}
    assert reasons["invalid_json"] == "grading.reason.invalid_json"
    assert reasons["nbformat3"] == "grading.reason.nbformat"
    assert reasons["duplicate_ids"] == "grading.reason.duplicate_ids"
    assert reasons["lesson_variant"] == "grading.reason.not_exercises" and reasons["solutions_variant"] is None
    assert reasons["unknown_lesson"] == "grading.reason.unknown_lesson"


def test_execution_problems_are_noted(graded):
    book = graded[3]
    kinds = {name: [note["kind"] for note in entry["notes"]] for name, entry in book.items()}
    assert "cell_timeout" in kinds["infinite_loop"]
    assert "kernel_died" in kinds["kernel_exit"]
    assert "output_limit" in kinds["gigantic_output"]
    assert "cell_error" in kinds["display_patch"]              # seen in the reply status, output patched away
    assert "strays" in kinds["orphan"]
    assert book["module_exit"]["exercises"]["l90.greet"]["crashed"] is True
    assert book["module_patch"]["exercises"]["l90.greet"]["tampered"] is True
    assert book["good_pt"]["notes"] == []


def test_no_process_outlives_grading(graded):
    leftovers = [p for p in psutil.process_iter(["cmdline"]) if submissions.ORPHAN_MARKER in (p.info["cmdline"] or [])]
    assert leftovers == []


def test_feedback_in_the_learners_language_without_hidden_checks(graded):
    _, options, _, _ = graded
    feedback = Path(options.out) / "feedback"
    english = (feedback / "good_en.md").read_text()
    assert "**Score: 5/5**" in english and "double of 21" in english
    portuguese = (feedback / "partial.md").read_text()
    assert "**Nota: 2/5**" in portuguese and "saudação de Ana em pt" in portuguese
    hidden = (feedback / "hidden_fail.md").read_text()
    assert "Bia" not in hidden and "-3" not in hidden and "não mostradas" in hidden
    assert "não é JSON válido" in (damaged := (feedback / "invalid_json.md").read_text()) and "O que fazer" in damaged
    assert (Path(options.out) / "gradebook.json").stat().st_size < 200_000


def test_csv_gradebook(graded):
    _, options, _, _ = graded
    rows = (Path(options.out) / "gradebook.csv").read_text(encoding="utf-8-sig").splitlines()
    assert rows[0] == ("learner,file,lesson,lang,status,submitted,late_days,l90.double (/2),l90.greet (/3),"
                       "total,max,reason")
    good = next(row.split(",") for row in rows if row.startswith("good_en,"))
    assert good[:5] == ["good_en", "good_en.ipynb", "l90_fixture", "en", "graded"] and good[7:] == ["2", "3", "5", "5", ""]


def test_rerun_skips_unchanged_and_regrades_changed(graded):
    folder, options, _, _ = graded
    again = grade(folder, options)
    assert (again.graded, again.rejected, again.skipped) == (0, 0, len(submissions.CASES))
    submissions.write_all(folder, ["partial"])                  # same content: still skipped
    (folder / "unsolved.ipynb").write_text((folder / "good_pt.ipynb").read_text())
    third = grade(folder, options)
    assert (third.graded, third.skipped) == (1, len(submissions.CASES) - 1)
    book = json.loads((Path(options.out) / "gradebook.json").read_text())["submissions"]
    assert book["unsolved"]["total"] == 5 and book["partial"]["total"] == 2
