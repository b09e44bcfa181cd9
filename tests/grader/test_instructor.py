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
from grading_files import COURSE, EXERCISES

import notebooks
from celerylab.checks.verdict import Verdict
from celerylab.course import Course
from celerylab.grader import job_supervisor
from celerylab.grader.batch import Options, grade
from celerylab.grader.policy import LatePolicy, parse_duration, parse_when
from celerylab.grader.spec import JobResult, JobSpec
from celerylab.i18n import set_lang

GREET = {"pt": "saudação", "en": "greeting"}
# per submission: which greet criteria pass (the fake job's verdicts); double always passes
CASES = {"ana": [True, True, True], "bia": [True, False, True], "caio": [False, False, False]}
DEADLINE = datetime(2026, 12, 1, 23, 59).astimezone()


def criterion(passed: bool, hidden: bool = False, n: int = 0) -> dict:
    return {"key": f"c{n}", "passed": passed, "hidden": hidden, "expected": "'Olá'", "observed": "'x'",
            "labels": {"pt": f"saudação {n}", "en": f"greeting {n}"}}


def fake_job(job: JobSpec) -> JobResult:
    who = next(name for name in CASES if f"'{name}'" in json.dumps(job.notebook))
    greet = [criterion(ok, hidden=index == 2, n=index) for index, ok in enumerate(CASES[who])]
    return JobResult([{"kind": "cell_error", "cell": 4, "error": "NameError: name 'x' is not defined"}],
                     {"l90.double": Verdict.from_record({"criteria": [criterion(True)]}, "l90.double"),
                      "l90.greet": Verdict.from_record({"criteria": greet}, "l90.greet")})


@pytest.fixture
def batch(tmp_path, monkeypatch):
    """A copy of the fixture course whose greet gives partial credit, three submissions, a roster."""
    course = tmp_path / "course"
    shutil.copytree(COURSE, course)
    yml = course / "l90_fixture" / "exercises.yml"
    yml.write_text(yml.read_text().replace("greet:\n  points: 3\n", "greet:\n  points: 3\n  partial: true\n"))
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
    monkeypatch.setattr(job_supervisor, "run_job", fake_job)
    set_lang("pt")
    yield subs, course, roster, tmp_path / "out"


def options(out, course, **extra) -> Options:
    return Options(out=out, exercises_dir=EXERCISES, course=Course.at(course), show_progress=False, **extra)


def read_csv(path, sep=","):
    text = path.read_text(encoding="utf-8")
    assert text.startswith("\ufeff")                                    # UTF-8 with BOM, for spreadsheets
    return list(csv.reader(text[1:].splitlines(), delimiter=sep))


def test_gradebook_partial_credit_roster_and_late_policy(batch):
    subs, course, roster_path, out = batch
    from celerylab.grader.roster import read

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
    assert stats[0] == ["exercise", "criterion", "label", "hidden", "passed", "failed", "failed_percent", "observed"]
    assert ["l90.greet", "c1", "saudação 1", "no", "1", "2", "67", "'x' ×3"] in stats  # most learners fail it


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
    from celerylab.grader.roster import read

    grade(subs, options(out, course, roster=read(roster_path), exports=("canvas", "moodle", "gradescope")))
    canvas = read_csv(out / "canvas.csv")
    assert canvas[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "l90_fixture"]
    assert canvas[1] == ["Points Possible", "", "", "", "", "5"]
    assert ["Beatriz Lima", "102", "B2", "", "", "4"] in canvas
    moodle = read_csv(out / "moodle.csv")
    assert moodle[0] == ["Full name", "Email address", "l90_fixture"]
    assert ["Ana Souza", "ana@x.br", "5"] in moodle
    results = json.loads((out / "gradescope" / "bia" / "results.json").read_text())
    assert results["score"] == 4
    visibility = {test["name"]: test["visibility"] for test in results["tests"]}
    assert visibility["l90.greet: saudação 2"] == "after_published"    # hidden criteria after publishing
    assert visibility["l90.greet: saudação 0"] == "visible"
    assert {"score": 2, "max_score": 3}.items() <= next(
        test for test in results["tests"] if test["name"].startswith("l90.greet —")).items()


def measured(observed: str, passed: bool, seconds: str) -> dict:
    """A criterion whose label embeds a measurement, as lessons' checks give them."""
    key = {"pt": "voltou após {seconds} s", "en": "came back after {seconds} s"}
    return {"key": key, "passed": passed, "hidden": False, "expected": "True", "observed": observed,
            "labels": {"pt": f"voltou após {seconds} s", "en": f"came back after {seconds} s"}}


def test_a_criterion_is_one_row_whatever_it_measured():
    from celerylab.grader.criterion_stats import criteria_csv
    from celerylab.grader.entry import Entry

    entries = {name: Entry.from_record({"status": "graded", "exercises": {"l90.double": {"criteria": [criterion]}}}, name)
               for name, criterion in (("a", measured("True", True, "1.2")), ("b", measured("False", False, "3.4")),
                                       ("c", measured("True", True, "1.3")))}
    set_lang("pt")
    rows = list(csv.reader(criteria_csv(entries, []).splitlines()))
    assert len(rows) == 2 and rows[1][:2] == ["l90.double", "voltou após {seconds} s"]
    assert rows[1][4:] == ["2", "1", "33", "True ×2; False ×1"]


def test_lms_csvs_keep_their_import_format_with_a_spreadsheet_separator(batch, capsys):
    """--csv-sep ';' makes the gradebook a pt-BR spreadsheet; canvas.csv and moodle.csv stay what Canvas
    ("Student, ID, SIS User ID, SIS Login ID, Section", then one column per assignment, a Points Possible
    row) and Moodle (a header row, an identifier column to map, numeric grades with a decimal point)
    import: commas, points, every roster learner present (a missing one at 0), each row matchable."""
    subs, course, roster_path, out = batch
    from celerylab.grader.roster import read

    late = LatePolicy(DEADLINE, parse_duration("2h"), penalty=10, cap=50)
    grade(subs, options(out, course, roster=read(roster_path), late=late, csv_sep=";",
                        exports=("canvas", "moodle", "gradescope")))
    assert "⚠ canvas" not in (err := capsys.readouterr().err) and "⚠ moodle" not in err  # every row matches
    canvas = read_csv(out / "canvas.csv", ",")
    assert canvas[0][:5] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section"]
    assert canvas[1][:5] == ["Points Possible", "", "", "", ""]
    rows = {row[0]: row for row in canvas[2:]}
    assert set(rows) == {"Ana Souza", "Beatriz Lima", "Caio Prado", "Davi Reis"}
    assert rows["Beatriz Lima"][5] == "3.2" and rows["Davi Reis"][1:] == ["104", "D4", "", "", "0"]
    assert all(any(row[1:4]) for row in rows.values())
    for row in canvas[1:]:
        float(row[5])
    moodle = read_csv(out / "moodle.csv", ",")
    assert moodle[0][:2] == ["Full name", "Email address"]
    assert {row[0]: row[2] for row in moodle[1:]} == {"Ana Souza": "5", "Beatriz Lima": "3.2", "Caio Prado": "1",
                                                      "Davi Reis": "0"}
    assert all(row[1] for row in moodle[1:])


def test_lms_csvs_without_a_roster_say_what_is_missing(batch, capsys):
    subs, course, _, out = batch
    grade(subs, options(out, course, exports=("canvas", "moodle")))
    err = capsys.readouterr().err
    assert "canvas.csv: 3 linha(s) sem ID, SIS User ID nem SIS Login ID" in err and "--roster" in err
    assert "moodle.csv: 3 aluno(s) sem o identificador" in err
    assert read_csv(out / "moodle.csv") == [["Full name", "ID number", "l90_fixture"]]  # no row Moodle would refuse


GRADESCOPE_TOP = {"score", "execution_time", "output", "output_format", "test_output_format", "test_name_format",
                  "visibility", "stdout_visibility", "extra_data", "tests", "leaderboard"}
GRADESCOPE_TEST = {"score", "max_score", "status", "name", "name_format", "number", "output", "output_format",
                   "tags", "visibility", "extra_data"}
VISIBILITY = {"hidden", "after_due_date", "after_published", "visible"}


def test_gradescope_results_follow_its_specification(batch):
    """Gradescope's autograder results.json: known keys and types only, tests in course order, and the
    late penalty explained, as a test of its own, so the tests add up to the score."""
    subs, course, roster_path, out = batch
    late = LatePolicy(DEADLINE, parse_duration("2h"), penalty=10, cap=50)
    grade(subs, options(out, course, late=late, exports=("gradescope",)))
    for name in CASES:
        results = json.loads((out / "gradescope" / name / "results.json").read_text())
        assert set(results) <= GRADESCOPE_TOP and isinstance(results["score"], (int, float))
        assert results["visibility"] in VISIBILITY
        for test in results["tests"]:
            assert set(test) <= GRADESCOPE_TEST and isinstance(test["name"], str)
            assert test.get("visibility", "visible") in VISIBILITY and test.get("status", "passed") in {"passed", "failed"}
            for field in ("score", "max_score"):
                assert field not in test or isinstance(test[field], (int, float))
    bia = json.loads((out / "gradescope" / "bia" / "results.json").read_text())
    exercises = [test["name"].split(" — ")[0] for test in bia["tests"] if " — " in test["name"]]
    assert exercises == ["l90.double", "l90.greet"]                   # course order
    assert bia["score"] == 3.2 and "desconto de 20 % sobre 4 pontos" in bia["output"]
    assert round(sum(test.get("score", 0) for test in bia["tests"]), 2) == 3.2


def test_durations_and_dates():
    assert parse_duration("15m") == timedelta(minutes=15) and parse_duration("90") == timedelta(seconds=90)
    assert parse_when("2026-12-01T23:59-03:00").utcoffset() == timedelta(hours=-3)
    with pytest.raises(ValueError):
        parse_duration("-1h")


def test_moodle_rows_all_carry_the_identifier_it_maps_by(batch, capsys):
    """Moodle's CSV import aborts on a row it cannot map: a roster learner without an e-mail (here the one who
    submitted nothing, listed first) is left out of moodle.csv and named; every row left has the e-mail."""
    subs, course, roster_path, out = batch
    from celerylab.grader.roster import read

    roster_path.write_text("file;learner;email;id\nzed.ipynb;Ana Zed;;99\n" + roster_path.read_text().split("\n", 1)[1]
                           .replace(";A1", "").replace(";B2", "").replace(";C3", "").replace(";D4", ""))
    grade(subs, options(out, course, roster=read(roster_path), exports=("moodle",)))
    moodle = read_csv(out / "moodle.csv")
    assert moodle[0] == ["Full name", "Email address", "l90_fixture"]
    assert [row[0] for row in moodle[1:]] == ["Ana Souza", "Beatriz Lima", "Caio Prado", "Davi Reis"]
    assert all(row[1] for row in moodle[1:])
    assert "moodle.csv: 1 aluno(s)" in (err := capsys.readouterr().err) and "Ana Zed" in err


def test_a_roster_file_with_ipynb_keeps_a_missing_learners_ids_in_the_exports(batch, capsys):
    subs, course, roster_path, out = batch
    from celerylab.grader.roster import read

    roster_path.write_text(roster_path.read_text().replace("davi;", "davi.ipynb;"))
    grade(subs, options(out, course, roster=read(roster_path), exports=("canvas", "moodle")))
    assert "⚠ canvas" not in (err := capsys.readouterr().err) and "⚠ moodle" not in err
    assert ["Davi Reis", "104", "D4", "", "", "0"] in read_csv(out / "canvas.csv")
    assert ["Davi Reis", "davi@x.br", "0"] in read_csv(out / "moodle.csv")


def test_canvas_columns_carry_the_assignment_id_canvas_matches_by(batch):
    subs, course, roster_path, out = batch
    from celerylab.grader.roster import read

    grade(subs, options(out, course, roster=read(roster_path), exports=("canvas",),
                        canvas_assignments={"l90_fixture": "4321"}))
    assert read_csv(out / "canvas.csv")[0][5] == "l90_fixture (4321)"


def test_a_submission_named_after_another_learners_id_or_email_is_not_merged_into_their_row(batch, capsys):
    """People are keyed by roster row: a file named like Ana's Canvas id or e-mail is a person of its own."""
    subs, course, roster_path, out = batch
    from celerylab.grader.roster import read

    for impostor in ("101", "ana@x.br"):
        shutil.copy(subs / "caio.ipynb", subs / f"{impostor}.ipynb")
    grade(subs, options(out, course, roster=read(roster_path), exports=("canvas", "moodle")))
    canvas = read_csv(out / "canvas.csv")
    assert [row for row in canvas if row[1] == "101"] == [["Ana Souza", "101", "A1", "", "", "5"]]
    assert ["Ana Souza", "ana@x.br", "5"] in read_csv(out / "moodle.csv")


def test_two_submissions_of_one_learner_for_one_lesson_export_the_lower_score_and_are_named(batch, capsys):
    """A second copy in one's own folder never blanks one's LMS cell (a 0 stays a 0): the lower total counts."""
    subs, course, roster_path, out = batch
    from celerylab.grader.roster import read

    grade(subs, options(out, course, roster=read(roster_path), exports=("canvas",)))
    alone = {row[0]: row[-1] for row in read_csv(out / "canvas.csv")[2:]}
    (subs / "bia").mkdir()
    shutil.copy(subs / "caio.ipynb", subs / "bia" / "again.ipynb")  # caio's answers: a lower total than bia's
    grade(subs, options(out, course, roster=read(roster_path), exports=("canvas",)))
    assert float(alone["Caio Prado"]) < float(alone["Beatriz Lima"])
    assert ["Beatriz Lima", "102", "B2", "", "", alone["Caio Prado"]] in read_csv(out / "canvas.csv")
    err = capsys.readouterr().err
    assert "1 aluno(s) com mais de uma entrega" in err and "bia, bia/again" in err and "menor nota" in err


def test_text_that_a_spreadsheet_would_run_as_a_formula_is_quoted_in_every_csv(batch):
    subs, course, roster_path, out = batch
    from celerylab.grader.roster import read

    shutil.move(subs / "caio.ipynb", subs / "=HYPERLINK(1).ipynb")
    roster_path.write_text(roster_path.read_text().replace("Beatriz Lima", "@SUM(1+1)"))
    grade(subs, options(out, course, roster=read(roster_path), exports=("canvas", "moodle")))
    for name in ("gradebook.csv", "canvas.csv", "moodle.csv"):
        cells = [cell for row in read_csv(out / name) for cell in row]
        assert not [cell for cell in cells if cell.startswith(("=", "@", "+", "\t", "\r"))
                    or (cell.startswith("-") and not cell[1:].replace(".", "").isdigit())], name
        assert "'@SUM(1+1)" in cells or name == "gradebook.csv"
    assert "'=HYPERLINK(1)" in [cell for row in read_csv(out / "gradebook.csv") for cell in row]


def test_hidden_criteria_have_rows_of_their_own_and_no_count_exceeds_the_class():
    """A hidden criterion repeats a visible one with other inputs (same key): its own row; each submission
    counts once per row, however many cases of it the check ran."""
    from celerylab.grader.criterion_stats import criteria_csv
    from celerylab.grader.entry import Entry

    cases = [criterion(True, n=0), criterion(True, n=0), criterion(False, hidden=True, n=0)]
    entries = {name: Entry.from_record({"status": "graded", "exercises": {"l90.greet": {"criteria": cases}}}, name)
               for name in ("a", "b", "c")}
    set_lang("pt")
    rows = list(csv.reader(criteria_csv(entries, []).splitlines()))[1:]
    assert [row[3:6] for row in rows] == [["no", "3", "0"], ["yes", "0", "3"]]


def test_gradescope_folders_differ_for_keys_that_would_nest():
    from celerylab.grader.export_gradescope import gradescope_folder

    folders = {gradescope_folder(key) for key in ("a", "a/results.json", "a_", "a/b", "a%2Fb")}
    assert len(folders) == 5 and not any("/" in folder for folder in folders)


def test_a_damaged_submission_exports_a_0_like_no_submission_not_a_blank_the_lms_would_skip(batch):
    """Canvas leaves a blank cell's grade unchanged and Moodle skips it: a file that could not be graded (here
    caio's, truncated) is a 0 in both, as a learner who handed in nothing is."""
    subs, course, roster_path, out = batch
    from celerylab.grader.roster import read

    (subs / "caio.ipynb").write_text('{"cells": [')
    grade(subs, options(out, course, roster=read(roster_path), exports=("canvas", "moodle")))
    assert ["Caio Prado", "103", "C3", "", "", "0"] in read_csv(out / "canvas.csv")
    assert ["Caio Prado", "caio@x.br", "0"] in read_csv(out / "moodle.csv")
