"""What an instructor gets from a batch: course-order columns, pt-BR spreadsheets, partial credit, statistics,
roster, late policy, --force, and Canvas / Moodle / Gradescope exports (jobs faked: no process started here)."""
from __future__ import annotations

import csv
import json
import os
import shutil
from datetime import datetime, timedelta

import nbformat
import pytest

from celerylab.grading import runner
from celerylab.grading.grader import Options, grade
from celerylab.grading.policy import LatePolicy, parse_duration, parse_when
from celerylab.grading.verdicts import JobVerdict
from celerylab.i18n import set_lang
import notebooks
from grading_files import COURSE, EXERCISES

GREET = {"pt": "saudação", "en": "greeting"}
# per submission: which greet criteria pass (the fake job's verdicts); double always passes
CASES = {"ana": [True, True, True], "bia": [True, False, True], "caio": [False, False, False]}
DEADLINE = datetime(2026, 12, 1, 23, 59).astimezone()


def criterion(passed: bool, hidden: bool = False, n: int = 0) -> dict:
    return {"key": f"c{n}", "passed": passed, "hidden": hidden, "expected": "'Olá'", "observed": "'x'",
            "labels": {"pt": f"saudação {n}", "en": f"greeting {n}"}}


def fake_job(job: dict) -> dict:
    who = next(name for name in CASES if f"'{name}'" in json.dumps(job["notebook"]))
    greet = [criterion(ok, hidden=index == 2, n=index) for index, ok in enumerate(CASES[who])]
    return {"execution": [{"kind": "cell_error", "cell": 4, "error": "NameError: name 'x' is not defined"}],
            "verdicts": {"l90.double": JobVerdict("l90.double", [criterion(True)]),
                         "l90.greet": JobVerdict("l90.greet", greet)}}


@pytest.fixture
def batch(tmp_path, monkeypatch):
    """A copy of the fixture course whose greet gives partial credit, three submissions, a roster."""
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    yml = course / "l90_fixture" / "exercises.yml"
    yml.write_text(yml.read_text().replace("greet:\n  points: 3\n", "greet:\n  points: 3\n  partial: true\n"))
    monkeypatch.setenv("CELERYLAB_COURSE_ROOT", str(course))
    subs = tmp_path / "subs"
    subs.mkdir()
    for offset, name in enumerate(CASES):
        notebook = notebooks.build("pt", "exercises")
        notebook.cells.append(nbformat.v4.new_markdown_cell(f"'{name}'"))
        path = subs / f"{name}.ipynb"
        nbformat.write(notebook, str(path))
        when = DEADLINE + timedelta(hours=[-1, 30, 24 * 9][offset])  # on time, 2 days late, 10 days late
        os.utime(path, (when.timestamp(), when.timestamp()))
    roster = tmp_path / "roster.csv"
    roster.write_text("file;learner;email;id;sis_id\nana.ipynb;Ana Souza;ana@x.br;101;A1\n"
                      "bia;Beatriz Lima;bia@x.br;102;B2\ncaio;Caio Prado;caio@x.br;103;C3\n"
                      "davi;Davi Reis;davi@x.br;104;D4\n", encoding="utf-8")
    monkeypatch.setattr(runner, "run_job", fake_job)
    set_lang("pt")
    yield subs, course, roster, tmp_path / "out"


def options(out, course, **extra) -> Options:
    return Options(out=out, exercises_dir=EXERCISES, root=str(course), show_progress=False, **extra)


def read_csv(path, sep=","):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("\ufeff")                                    # UTF-8 with BOM, for spreadsheets
    return list(csv.reader(text[1:].splitlines(), delimiter=sep))


def test_gradebook_partial_credit_roster_and_late_policy(batch):
    subs, course, roster_path, out = batch
    from celerylab.grading.roster import read

    late = LatePolicy(DEADLINE, parse_duration("2h"), penalty=10, cap=50)
    grade(subs, options(out, course, roster=read(roster_path), late=late, csv_sep=";"))
    rows = read_csv(out / "gradebook.csv", ";")
    header = rows[0]
    assert header[7:9] == ["l90.double (/2)", "l90.greet (/3)"]       # course order, each with its maximum
    by_name = {row[0]: dict(zip(header, row)) for row in rows[1:]}
    assert by_name["Ana Souza"]["total"] == "5" and by_name["Ana Souza"]["late_days"] == "0"
    assert by_name["Beatriz Lima"]["l90.greet (/3)"] == "2"          # 2 of 3 criteria: 2 of 3 points
    assert by_name["Beatriz Lima"]["late_days"] == "2" and by_name["Beatriz Lima"]["total"] == "3,2"  # 4 - 20 %
    assert by_name["Caio Prado"]["total"] == "1"                       # 2 points, capped 50 % off
    assert by_name["Davi Reis"]["status"] == "missing"                 # in the roster, nothing submitted
    book = json.loads((out / "gradebook.json").read_text())["submissions"]
    assert book["bia"]["raw_total"] == 4 and book["bia"]["late"]["percent_off"] == 20
    assert book["ana"]["submitted"].startswith("2026-12-01T22:59")
    assert "2 dia(s) de atraso: desconto de 20 % sobre 4 pontos" in (out / "feedback" / "bia.md").read_text()
    feedback = (out / "feedback" / "ana.md").read_text()
    assert "célula 4" in feedback and "NameError: name 'x' is not defined" in feedback
    stats = read_csv(out / "criteria.csv", ";")
    assert stats[0] == ["exercise", "criterion", "hidden", "passed", "failed", "failed_percent"]
    assert ["l90.greet", "saudação 1", "no", "1", "2", "67"] in stats  # the criterion most learners fail


def test_force_regrades_and_a_new_deadline_applies_to_unchanged_entries(batch):
    subs, course, _, out = batch
    assert grade(subs, options(out, course)).graded == 3
    again = grade(subs, options(out, course, late=LatePolicy(DEADLINE, penalty=100)))
    assert again.skipped == 3
    book = json.loads((out / "gradebook.json").read_text())["submissions"]
    assert book["bia"]["total"] == 0 and book["ana"]["total"] == 5
    assert grade(subs, options(out, course, force=True)).graded == 3


def test_canvas_moodle_and_gradescope_exports(batch):
    subs, course, roster_path, out = batch
    from celerylab.grading.roster import read

    grade(subs, options(out, course, roster=read(roster_path), exports=("canvas", "moodle", "gradescope")))
    canvas = read_csv(out / "canvas.csv")
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "l90_fixture"]
    assert canvas[1] == ["Points Possible", "", "", "", "", "5"]
    assert ["Beatriz Lima", "102", "B2", "", "", "4"] in canvas
    moodle = read_csv(out / "moodle.csv")
    assert moodle[0] == ["Full name", "Email address", "ID number", "l90_fixture"]
    assert ["Ana Souza", "ana@x.br", "A1", "5"] in moodle
    results = json.loads((out / "gradescope" / "bia" / "results.json").read_text())
    assert results["score"] == 4
    visibility = {test["name"]: test["visibility"] for test in results["tests"]}
    assert visibility["l90.greet: saudação 2"] == "after_published"    # hidden criteria after publishing
    assert visibility["l90.greet: saudação 0"] == "visible"
    assert {"score": 2, "max_score": 3}.items() <= next(
        test for test in results["tests"] if test["name"].startswith("l90.greet —")).items()


def test_durations_and_dates():
    assert parse_duration("15m") == timedelta(minutes=15) and parse_duration("90") == timedelta(seconds=90)
    assert parse_when("2026-12-01T23:59-03:00").utcoffset() == timedelta(hours=-3)
    with pytest.raises(ValueError):
        parse_duration("-1h")
