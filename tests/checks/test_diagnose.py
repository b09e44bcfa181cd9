"""Never a verdict without its reason: hidden failures counted, a task's exception shown, syntax errors located."""
from __future__ import annotations

from celery.result import EagerResult
from grading_files import FIXTURE_COURSE, write_notebook

import notebooks
from celerylab.checks.check_run import CheckRun, run_check
from celerylab.checks.diagnose import describe_exception, syntax_problem
from celerylab.checks.render import criterion_line, verdict_text
from celerylab.checks.verdict import Criterion, Verdict
from celerylab.i18n import set_lang


class IntegrityError(Exception):
    """Stands for sqlite3's, as a task's result carries it."""


def test_a_failure_whose_visible_lines_pass_says_how_many_hidden_criteria_failed():
    verdict = Verdict("l90.greet", [Criterion("a", 1, 1, True), Criterion("b", 1, 2, False, hidden=True),
                                    Criterion("c", 1, 3, False, hidden=True)])
    assert "hidden criteria that failed: 2" in verdict_text(verdict, "en")
    assert "critérios ocultos que falharam: 2" in verdict_text(verdict, "pt")
    assert "no criterion was recorded" in verdict_text(Verdict("l90.greet"), "en")


def test_a_tasks_exception_is_the_cause_of_its_state(tmp_path):
    run = CheckRun(FIXTURE_COURSE.find_exercise("l90.greet"), tmp_path)
    failed = EagerResult("id", IntegrityError("UNIQUE constraint failed:\n invoices.order_id"), "FAILURE")
    assert not run.expect_state({"pt": "estado", "en": "state"}, "SUCCESS", failed)
    text = verdict_text(run.verdict, "en")
    assert "expected SUCCESS, observed FAILURE" in text
    assert "cause: IntegrityError: UNIQUE constraint failed: invoices.order_id" in text
    assert run.verdict.to_record()["criteria"][0]["cause"].startswith("IntegrityError")
    assert run.expect_state("x", "SUCCESS", EagerResult("id", 1, "SUCCESS"))
    assert "cause" not in criterion_line(run.verdict.criteria[-1], "en")
    assert describe_exception(KeyError()) == "KeyError"


def test_a_syntax_error_points_at_the_answer_cell_and_its_line(tmp_path):
    set_lang("en")
    notebook = notebooks.build("en", "exercises", {"greet": "%%writefile ex_greet.py\ndef greet(name, lang)\n    return 1\n"})
    path = write_notebook(tmp_path / "90_fixture.ipynb", notebook)
    (tmp_path / "ex_greet.py").write_text("def greet(name, lang)\n    return 1\n")
    cell = next(n for n, c in enumerate(notebook.cells, 1) if c.source.startswith("%%writefile ex_greet.py"))
    verdict = run_check(FIXTURE_COURSE.find_exercise("l90.greet"), tmp_path, notebook=path)
    assert not verdict.passed and "Traceback" not in verdict.error
    assert f"in cell {cell} of the notebook (the one starting with %%writefile ex_greet.py), line 2" in verdict_text(verdict, "en")
    assert "def greet(name, lang)" in verdict.error
    assert f"cell {cell}" in syntax_problem(tmp_path / "ex_greet.py")        # found beside the module, too
    (tmp_path / "ex_greet.py").write_text("def greet(name, lang):\n    return name\n")
    assert syntax_problem(tmp_path / "ex_greet.py") is None
    set_lang("pt")
