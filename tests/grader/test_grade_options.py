"""Every bad option of `celerylab grade` gives one translated line and exit 2, before any submission is touched."""
from __future__ import annotations

import time

import pytest
from grading_files import COURSE, EXERCISES

from celerylab import cli

# "In seconds, not a hang": a refusal waits for a connect and an inspect of a few seconds (grader/remote.py);
# the bound is that behaviour with a margin for a loaded machine (each test took 1-7 s under load, 4.6 s beside
# two CPU burners; the old bounds were 15 s and 10 s)
ANSWERS_WITHIN = 60.0


def refused(capsys, tmp_path, *options, lang="en") -> str:
    (tmp_path / "subs").mkdir(exist_ok=True)
    argv = ["grade", str(tmp_path / "subs"), "--lessons-dir", str(COURSE), *options, "--lang", lang]
    if "--out" not in options:
        argv += ["--out", str(tmp_path / "out")]
    assert cli.main(argv) == 2
    captured = capsys.readouterr()
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in captured.err, captured.err
    assert not (tmp_path / "out" / "gradebook.json").exists()
    return lines[0]


@pytest.mark.parametrize("option,value", [("--jobs", "0"), ("--jobs", "-1"), ("--jobs", "two"),
                                          ("--cell-timeout", "nan"), ("--cell-timeout", "inf"),
                                          ("--cell-timeout", "-5"), ("--notebook-timeout", "0")])
def test_numbers_must_be_finite_and_positive(capsys, tmp_path, option, value):
    assert refused(capsys, tmp_path, option, value).startswith(f"{option} needs a finite number greater than zero")


def test_out_must_be_a_writable_folder(capsys, tmp_path):
    (tmp_path / "file").write_text("x")
    assert "is not a folder" in refused(capsys, tmp_path, "--out", str(tmp_path / "file"))
    assert "Cannot write" in refused(capsys, tmp_path, "--out", str(tmp_path / "file" / "below"))
    assert "Não consigo gravar" in refused(capsys, tmp_path, "--out", "/proc/celerylab-out", lang="pt")


def test_a_malformed_or_unreachable_broker(capsys, tmp_path, grading_key):
    started = time.monotonic()
    assert refused(capsys, tmp_path, "--broker", "nonsense://x").startswith("The broker nonsense://x")
    assert refused(capsys, tmp_path, "--broker", "redis://127.0.0.1:1/0").startswith("The broker redis://")
    assert time.monotonic() - started < ANSWERS_WITHIN


@pytest.mark.live
@pytest.mark.needs("redis-server")
def test_a_broker_without_a_grading_worker_is_reported_in_seconds(capsys, tmp_path, grading_key):
    from celerylab.stack import Stack

    with Stack.start("celerylab.grader.celery_app", workers=0, broker_kind="redis-server", timeline=False) as stack:
        started = time.monotonic()
        line = refused(capsys, tmp_path, "--broker", stack.broker.url)
        took = time.monotonic() - started
    assert line.startswith("No grading worker answered")
    assert took < ANSWERS_WITHIN, took


@pytest.fixture
def one_submission(tmp_path, monkeypatch):
    """One exercises notebook to grade, jobs that pass every check (no process), the course each run was given."""
    import nbformat

    import notebooks
    from celerylab.checks.verdict import Verdict
    from celerylab.commands import grade
    from celerylab.grader import job_supervisor
    from celerylab.grader.spec import JobResult

    (tmp_path / "subs").mkdir()
    nbformat.write(notebooks.build("pt", "exercises"), str(tmp_path / "subs" / "ana.ipynb"))
    given = []
    monkeypatch.setattr(grade, "jobs_can_import", lambda course, out: given.append(course))
    monkeypatch.setattr(job_supervisor, "run_job", lambda job: given.append(job.root) or JobResult(verdicts={
        exercise: Verdict.from_record({"criteria": [{"passed": True}]}, exercise) for exercise in job.exercises}))
    return tmp_path, given


@pytest.mark.parametrize("option", ["--lessons-dir", "--course"])
def test_the_lessons_folder_option_and_its_old_name_grade_the_same_course(capsys, one_submission, option):
    import json

    tmp_path, given = one_submission
    argv = ["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "out"), option, str(COURSE),
            "--exercises", str(EXERCISES), "--lang", "en"]
    assert cli.main(argv) == 0
    err = capsys.readouterr().err
    assert ("--course is deprecated" in err and "use --lessons-dir" in err) is (option == "--course")
    assert [course.lessons_dir for course in given[:1]] == [COURSE.resolve()] and given[1:] == [str(COURSE.resolve())]
    entry = json.loads((tmp_path / "out" / "gradebook.json").read_text())["submissions"]["ana"]
    assert entry["status"] == "graded" and sorted(entry["exercises"]) == ["l90.double", "l90.greet"]


def test_remote_grading_without_the_shared_key_is_refused(capsys, tmp_path, monkeypatch):
    """Jobs and results are signed (grader/signing.py): no key, no remote grading, before any connection."""
    monkeypatch.delenv("CELERYLAB_GRADING_KEY", raising=False)
    monkeypatch.delenv("CELERYLAB_GRADING_KEY_FILE", raising=False)
    line = refused(capsys, tmp_path, "--broker", "redis://127.0.0.1:1/0")
    assert line.startswith("Remote grading on redis://127.0.0.1:1/0 needs the key") and "CELERYLAB_GRADING_KEY" in line


def test_a_machine_without_the_sandbox_is_refused_in_one_line(capsys, tmp_path, monkeypatch):
    """Fail closed: no bwrap, no grading (never a silent run without the sandbox)."""
    from celerylab.grader.sandbox import bwrap

    def missing():
        raise bwrap.NoSandbox("bwrap not found")

    monkeypatch.setattr(bwrap, "binary", missing)
    line = refused(capsys, tmp_path, "--out", str(tmp_path / "out"))
    assert line.startswith("This machine has no grading sandbox (bwrap not found)")


@pytest.mark.parametrize("submitted", [False, True])
def test_a_deadline_without_the_lms_submission_times_warns_that_file_times_are_the_learners(
        capsys, one_submission, submitted):
    tmp_path, _ = one_submission
    roster = tmp_path / "roster.csv"
    roster.write_text("file,learner,submitted\nana,Ana," + ("2026-12-01T20:00+00:00" if submitted else "") + "\n")
    argv = ["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--lessons-dir", str(COURSE),
            "--exercises", str(EXERCISES), "--lang", "en", "--deadline", "2026-12-01T23:59", "--roster", str(roster)]
    assert cli.main(argv) == 0
    warned = [line for line in capsys.readouterr().err.splitlines() if "modification time" in line]
    assert len(warned) == (0 if submitted else 1), warned


def late_by_a_day(tmp_path, *extra, lang: str) -> list[str]:
    """`grade` of ana's submission, handed in a day late at 10 % a day (5 points: 4.5), in `lang`."""
    roster = tmp_path / "roster.csv"
    roster.write_text("file,learner,id,submitted\nana,Ana,101,2026-12-02T20:00+00:00\n")
    return ["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--lessons-dir", str(COURSE),
            "--exercises", str(EXERCISES), "--lang", lang, "--deadline", "2026-12-01T23:59+00:00",
            "--late-penalty", "10", "--roster", str(roster), *extra]


@pytest.mark.parametrize("lang,sep,total", [("pt", ";", "4,5"), ("en", ",", "4.5")])
def test_without_csv_sep_the_gradebook_is_what_a_spreadsheet_in_the_graders_language_opens_as_columns(
        one_submission, lang, sep, total):
    """LibreOffice and Excel in pt-BR split a CSV on ';' and read '4,5' as a number (with ',' the row lands in one
    column, '4.5' becomes text): the Portuguese default; English keeps ',' and the decimal point."""
    import csv

    tmp_path, _ = one_submission
    assert cli.main(late_by_a_day(tmp_path, lang=lang)) == 0
    for name in ("gradebook.csv", "criteria.csv"):
        header, *rows = csv.reader((tmp_path / "out" / name).read_text("utf-8-sig").splitlines(), delimiter=sep)
        assert len(header) > 5 and all(len(row) == len(header) for row in rows), (name, header)  # columns, not one cell
        if name == "gradebook.csv":
            assert dict(zip(header, rows[0]))["total"] == total, rows


def test_canvas_assignment_names_the_lessons_column_as_canvas_exports_an_existing_assignment(one_submission):
    """``--canvas-assignment LESSON=ID``: canvas.csv's column is ``LESSON (ID)``, which Canvas's gradebook import
    matches to the assignment of that id (a bare name makes it create a new assignment); the LMS CSVs keep ',' and
    the decimal point whatever the gradebook's language."""
    import csv

    tmp_path, _ = one_submission
    argv = late_by_a_day(tmp_path, "--export", "canvas", "--canvas-assignment", "l90_fixture=4321", lang="pt")
    assert cli.main(argv) == 0
    rows = list(csv.reader((tmp_path / "out" / "canvas.csv").read_text("utf-8-sig").splitlines()))
    assert rows[0] == ["Student", "ID", "SIS User ID", "SIS Login ID", "Section", "l90_fixture (4321)"]
    assert rows[2] == ["Ana", "101", "", "", "", "4.5"]


@pytest.mark.parametrize("value", ["l90_fixture", "l90_fixture=", "=4321", "l90_fixture=abc"])
def test_a_canvas_assignment_without_a_numeric_id_is_refused(capsys, tmp_path, value):
    assert refused(capsys, tmp_path, "--canvas-assignment", value).startswith("--canvas-assignment expects LESSON=ID")
