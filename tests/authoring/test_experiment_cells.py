"""`celerylab dev check` in every lesson: a measured cell must show the experiment that measures."""
from __future__ import annotations

import pytest

from celerylab.authoring import course_check
from celerylab.authoring.course_check import check_course
from celerylab.course import Course

from .conftest import edit

HIDDEN = 'result = stack.app.send_task("l42.echo", ("olá / hello",))\nprint(result.get(timeout=30))'
SHOWN = '#| experiment: echo\nseen = echo(stack, "olá / hello")\nprint(seen.returned)'


@pytest.fixture(autouse=True)
def cells_rule_alone(monkeypatch):
    """Only the cells' rule: hiding the cell's experiment hides the claim test's too, which the claim tests' own rule
    reports (tests/authoring/test_claim_experiments.py)."""
    monkeypatch.setattr(course_check, "claim_experiment_problems", lambda folder, cells, described: ([], []))


def problems(lessons) -> list[str]:
    report = check_course(Course.at(lessons), root=lessons.parent / "out", freshness=False)
    return [problem.render() for problem in report.problems]


def hide_the_experiment(lessons) -> None:
    """echo-run makes its Celery calls itself instead of showing experiments/echo.py (and needs a real server)."""
    lesson = lessons / "l42_demo" / "lesson.md"
    edit(lesson, SHOWN, HIDDEN)
    edit(lesson, '+++ {"id": "echo-run"}', '+++ {"id": "echo-run", "needs": ["redis-server"]}')


def test_the_scaffolded_lesson_measures_through_its_experiment(lessons):
    assert (lessons / "l42_demo" / "experiments" / "echo.py").is_file()
    assert SHOWN in (lessons / "l42_demo" / "lesson.md").read_text(encoding="utf-8")
    assert problems(lessons) == []


def test_a_measured_cell_without_its_experiment_fails_and_only_by_this_rule(lessons, monkeypatch):
    hide_the_experiment(lessons)
    [problem] = problems(lessons)
    assert "l42_demo/lesson.md:" in problem
    assert problem.endswith("cell 'echo-run' measures (it has \"needs\") but shows no "
                            "experiment: start it with `#| experiment: name` (module experiments/name.py), or mark "
                            "it \"measures\": false if it measures nothing")
    monkeypatch.setattr(course_check, "experiment_problems", lambda folder, cells: [])
    assert problems(lessons) == []


def test_a_cell_without_needs_measures_too_but_a_language_cell_does_not(lessons):
    # echo-run needs nothing from the machine (a schedule asked of Celery on a stopped clock measures as much as a
    # live stack); lang-pt and lang-en set the page up; start-stack and close-stack say they measure nothing
    edit(lessons / "l42_demo" / "lesson.md", SHOWN, HIDDEN)
    assert [problem.split(": ", 1)[1].split(" ", 2)[1] for problem in problems(lessons)] == ["'echo-run'"]


def test_a_wrong_experiment_name_is_located(lessons):
    lesson = lessons / "l42_demo" / "lesson.md"
    edit(lesson, "#| experiment: echo", "#| experiment: echo, nothing")
    assert [problem.split(": ", 1)[1] for problem in problems(lessons)] == [
        "cell 'echo-run' names nothing, which is not a module of experiments/"]


def test_a_lesson_without_experiments_is_held_too_and_a_cell_may_say_it_measures_nothing(lessons):
    hide_the_experiment(lessons)
    for module in (lessons / "l42_demo" / "experiments").iterdir():
        module.unlink()
    (lessons / "l42_demo" / "experiments").rmdir()
    assert len(problems(lessons)) == 1  # no experiments/ folder: the rule still applies
    edit(lessons / "l42_demo" / "lesson.md", '"needs": ["redis-server"]}', '"needs": ["redis-server"], "measures": false}')
    assert problems(lessons) == []


def test_an_experiment_too_long_to_read_in_its_cell_is_reported(lessons):
    long = lessons / "l42_demo" / "experiments" / "echo.py"
    long.write_text(long.read_text(encoding="utf-8") + "".join(f"X{n} = {n}\n" for n in range(60)), encoding="utf-8")
    [problem] = problems(lessons)
    assert "echo.py: an experiment of " in problem
    assert problem.endswith("(at most 60): keep only the Celery calls, the rest goes to helpers.py")
