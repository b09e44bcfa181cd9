"""Exports no learner can steer (issue 46): no spreadsheet formula from a name, no score in another person's row, one
folder per entry (no process started: the jobs are replaced by their results)."""
from __future__ import annotations

import csv
import io
import json

import nbformat
from grading_files import EXERCISES, FIXTURE_COURSE

import notebooks
from celerylab.checks.verdict import Verdict
from celerylab.grader import job_supervisor
from celerylab.grader.batch import Options, grade
from celerylab.grader.intake import find
from celerylab.grader.roster import read
from celerylab.grader.spec import JobResult

EXPORTS = ("canvas", "moodle", "gradescope")


def passing(monkeypatch) -> None:
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: JobResult(verdicts={
        exercise: Verdict.from_record({"criteria": [{"passed": True}]}, exercise) for exercise in job.exercises}))


def submit(subs, *names) -> None:
    for name in names:
        path = subs / f"{name}.ipynb"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(nbformat.writes(notebooks.build("pt", "exercises")))


def run(tmp_path, roster_text: str | None = None):
    roster = None
    if roster_text is not None:
        (tmp_path / "roster.csv").write_text(roster_text)
        roster = read(tmp_path / "roster.csv")
    out = tmp_path / "out"
    grade(tmp_path / "subs", Options(out=out, exercises_dir=EXERCISES, course=FIXTURE_COURSE, show_progress=False,
                                     roster=roster, exports=EXPORTS))
    return out


def cells(path) -> list[str]:
    text = path.read_text(encoding="utf-8-sig")
    return [cell for row in csv.reader(io.StringIO(text), delimiter=",") for cell in row]


def test_no_csv_cell_is_a_formula(tmp_path, monkeypatch):
    passing(monkeypatch)
    submit(tmp_path / "subs", '=HYPERLINK("x",1)', "@SUM(1+1)", "+cmd", "-2+3", "ana")
    out = run(tmp_path, "file,learner,email\nana,=IMPORTXML(A1),\n")
    for name in ("gradebook.csv", "criteria.csv", "canvas.csv", "moodle.csv"):
        risky = [cell for cell in cells(out / name) if cell[:1] in ("=", "+", "-", "@", "\t", "\r")]
        assert risky == [], (name, risky)
    assert "'=HYPERLINK(\"x\",1)" in cells(out / "gradebook.csv")


def test_a_file_named_after_another_learners_id_or_email_never_lands_in_their_row(tmp_path, monkeypatch):
    passing(monkeypatch)
    submit(tmp_path / "subs", "ana", "12345", "bia@example.org")  # the last two match no roster row
    roster = "file,learner,email,id\nana,Ana,ana@example.org,111\nbia,Bia,bia@example.org,12345\n"
    out = run(tmp_path, roster)
    canvas = list(csv.reader(io.StringIO((out / "canvas.csv").read_text(encoding="utf-8-sig"))))
    rows = {row[0]: row for row in canvas[2:]}
    assert rows["Bia"][1] == "12345" and rows["Bia"][-1] == "0"    # Bia submitted nothing: 0, not the file's 5
    assert rows["Ana"][-1] == "5"
    assert rows["12345"][1:5] == ["", "", "", ""] and rows["bia@example.org"][1:5] == ["", "", "", ""]
    moodle = list(csv.reader(io.StringIO((out / "moodle.csv").read_text(encoding="utf-8-sig"))))
    assert [row[-1] for row in moodle[1:] if row[1] == "bia@example.org"] == ["0"]


def test_every_entry_has_its_own_key_and_folder(tmp_path, monkeypatch):
    passing(monkeypatch)
    subs = tmp_path / "subs"
    submit(subs, "a", "a/results.json", "_", "")  # "" is a file named just .ipynb
    keys = [found.key for found in find(subs)]
    assert len(keys) == len(set(keys)) == 4
    out = run(tmp_path)  # a.ipynb beside a/results.json.ipynb stopped the Gradescope export (FileExistsError)
    folders = sorted(path.parent.name for path in (out / "gradescope").glob("*/results.json"))
    assert len(folders) == 4 and len(json.loads((out / "gradebook.json").read_text())["submissions"]) == 4
