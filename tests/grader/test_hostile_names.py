"""Folder and file names a learner chose, and text their code printed, never break or steer the grader (issue 46):
a name that is not UTF-8 is graded under an escaped key, control characters never reach a terminal, a CSV or a
feedback file raw, and HTML from a cell's error stays text."""
from __future__ import annotations

import json
import os

import nbformat
from grading_files import EXERCISES, FIXTURE_COURSE

import notebooks
from celerylab.checks.verdict import Verdict
from celerylab.grader import job_supervisor
from celerylab.grader.batch import Options, grade
from celerylab.grader.entry import Entry
from celerylab.grader.feedback import render
from celerylab.grader.intake import find
from celerylab.grader.names import safe_name
from celerylab.grader.spec import JobResult

BAD = os.fsdecode(b"bad\xff\xfe")
ESCAPE = "evil\x1b]0;pwned\x07\x1b[2J\u202egpj.exe\r"


def passing(monkeypatch) -> None:
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: JobResult(verdicts={
        exercise: Verdict.from_record({"criteria": [{"passed": True}]}, exercise) for exercise in job.exercises}))


def submit(subs, folder: str) -> None:
    path = subs / folder / "sub.ipynb"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(nbformat.writes(notebooks.build("pt", "exercises")))


def test_a_name_is_escaped_to_printable_utf8():
    assert safe_name(BAD + "/x.ipynb") == "bad\\xff\\xfe/x.ipynb"
    assert safe_name(ESCAPE) == "evil\\x1b]0;pwned\\x07\\x1b[2J\\u202egpj.exe\\x0d"
    assert safe_name("Conceição/ana") == "Conceição/ana"
    safe_name(BAD + ESCAPE).encode("utf-8")  # raises UnicodeEncodeError when a surrogate is left


def test_a_folder_name_that_is_not_utf8_is_graded_and_the_batch_writes_everything(tmp_path, monkeypatch, capsys):
    passing(monkeypatch)
    subs, out = tmp_path / "subs", tmp_path / "out"
    submit(subs, BAD)
    submit(subs, ESCAPE)
    submit(subs, "ana")
    assert {found.key for found in find(subs)} == {"ana/sub", "bad\\xff\\xfe/sub", safe_name(ESCAPE) + "/sub"}
    summary = grade(subs, Options(out=out, exercises_dir=EXERCISES, course=FIXTURE_COURSE, show_progress=False,
                                  exports=("canvas", "moodle", "gradescope")))
    assert summary.graded == 3
    entries = json.loads((out / "gradebook.json").read_text(encoding="utf-8"))["submissions"]
    assert {entry["status"] for entry in entries.values()} == {"graded"} and "bad\\xff\\xfe/sub" in entries
    written = [path for path in out.rglob("*") if path.is_file()]
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert "\x1b" not in text and "\x07" not in text and "\u202e" not in text, path
        assert "\x1b" not in str(path) and "\udcff" not in str(path)
    captured = capsys.readouterr()
    assert "\x1b" not in captured.err + captured.out and "\x07" not in captured.err + captured.out


def test_html_and_escape_sequences_in_a_cell_error_stay_text_in_the_feedback():
    error = "<script>alert(1)</script>\x1b[31mred\x1b[0m"
    entry = Entry("ana/sub", "ana/sub.ipynb", "ana/sub", "l90_fixture", "pt", "d", None)
    entry.notes = [{"kind": "cell_error", "cell": 2, "error": error}]
    text = render(entry, [], "pt")
    assert "<script>" not in text and "&lt;script&gt;" in text
    assert "\x1b" not in text and "\\x1b[31mred" in text
