"""Which exceptions of a check are the grader's own (not the learner's): run_check's grader_error."""
from __future__ import annotations

from grading_files import FIXTURE_COURSE

from celerylab.checks.check_run import grader_fault, run_check
from celerylab.checks.render import verdict_text


def raised(code: str, filename: str) -> BaseException:
    try:
        exec(compile(code, filename, "exec"), {})
    except BaseException as error:  # noqa: BLE001
        return error
    raise AssertionError("nothing raised")


def test_an_import_of_the_graders_own_that_fails_is_a_grader_fault(tmp_path):
    error = raised("import celerylab_module_that_is_not_installed", "/somewhere/celerylab/grading/checks.py")
    assert grader_fault(error, tmp_path, "ex_greet") is True


def test_what_the_learners_code_raises_stays_the_learners(tmp_path):
    learner = str(tmp_path / "ex_greet.py")
    assert grader_fault(raised("import requests_that_is_not_there", learner), tmp_path, "ex_greet") is False
    assert grader_fault(raised("import ex_greet_helper", learner), tmp_path, "ex_greet") is False
    missing_answer = ModuleNotFoundError("No module named 'ex_greet'", name="ex_greet")
    assert grader_fault(missing_answer, tmp_path, "ex_greet") is False
    assert grader_fault(raised("1 / 0", "/somewhere/celerylab/checks.py"), tmp_path, "ex_greet") is False


def test_a_check_that_cannot_be_loaded_is_a_grader_error_not_a_failure(tmp_path, monkeypatch):
    from celerylab.checks import check_run

    (tmp_path / "ex_greet.py").write_text("def greet(name, lang):\n    return name\n")
    monkeypatch.setattr(check_run, "load_checks", lambda info: (_ for _ in ()).throw(PermissionError("checks.py")))
    verdict = run_check(FIXTURE_COURSE.find_exercise("l90.greet"), tmp_path)
    assert verdict.grader_error and "PermissionError" in verdict.grader_error and verdict.error is None
    assert verdict.passed is False and "falha do corretor" in verdict_text(verdict, "pt")


def test_an_exercise_the_course_lacks_is_the_jobs_grader_error_not_a_failure():
    from celerylab.grader.job import preload_checks
    from celerylab.grader.spec import JobSpec

    found, blank, modules = preload_checks(JobSpec(["l90.nothing_like_it", "l90.greet"]), FIXTURE_COURSE)
    assert found["l90.nothing_like_it"].startswith("KeyError") and found["l90.greet"].id == "l90.greet"
    assert modules == {"ex_greet"} and blank == [str(FIXTURE_COURSE.lessons_dir / "l90_fixture" / "checks.py")]



def test_a_stack_service_that_cannot_start_is_a_grader_fault_unless_the_learner_raised_it(tmp_path):
    from celerylab.stack.errors import ServiceError

    code = "from celerylab.stack.errors import ServiceError\nraise ServiceError('stack.postgres_no_port')"
    assert grader_fault(raised(code, "/somewhere/celerylab/stack/packaged_postgres.py"), tmp_path, "ex_greet") is True
    assert grader_fault(raised(code, str(tmp_path / "ex_greet.py")), tmp_path, "ex_greet") is False
    assert issubclass(ServiceError, RuntimeError)


def test_a_database_that_cannot_start_is_never_blamed_on_the_learner(tmp_path, monkeypatch):
    from celerylab.checks import check_run
    from celerylab.stack import packaged_postgres

    def check(run):
        packaged_postgres.PrivatePostgres.start()

    (tmp_path / "ex_greet.py").write_text("def greet(name, lang):\n    return name\n")
    monkeypatch.setattr(packaged_postgres, "binaries", lambda: None)
    monkeypatch.setattr(check_run, "load_checks", lambda info: check)
    verdict = run_check(FIXTURE_COURSE.find_exercise("l90.greet"), tmp_path)
    assert verdict.grader_error and verdict.error is None
    assert "parou no seu código" not in verdict_text(verdict, "pt")
