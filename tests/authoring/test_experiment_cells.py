"""`celerylab dev check` in a lesson with experiments: a measured cell must show the experiment that measures."""
from __future__ import annotations

from celerylab.authoring import course_check
from celerylab.authoring.course_check import check_course
from celerylab.course import Course

from .conftest import edit

ECHO = '''"""The echo experiment: one task sent, its answer read."""


def echo(stack, text):
    return stack.app.send_task("l42.echo", (text,)).get(timeout=30)
'''


def problems(lessons) -> list[str]:
    report = check_course(Course.at(lessons), root=lessons.parent / "out", freshness=False)
    return [problem.render() for problem in report.problems]


def declare_experiments(lessons) -> None:
    (lessons / "l42_demo" / "experiments").mkdir()
    (lessons / "l42_demo" / "experiments" / "echo.py").write_text(ECHO, encoding="utf-8")
    edit(lessons / "l42_demo" / "lesson.md", '+++ {"id": "echo-run"}', '+++ {"id": "echo-run", "needs": ["redis-server"]}')


def test_a_measured_cell_without_its_experiment_fails_and_only_by_this_rule(lessons, monkeypatch):
    declare_experiments(lessons)
    [problem] = problems(lessons)
    assert problem.endswith("l42_demo/lesson.md:57: cell 'echo-run' measures (it has \"needs\") but shows no "
                            "experiment: start it with `#| experiment: name` (module experiments/name.py), or mark "
                            "it \"measures\": false if it measures nothing")
    monkeypatch.setattr(course_check, "experiment_problems", lambda folder, cells: [])
    assert problems(lessons) == []


def test_a_cell_without_needs_measures_too_but_a_language_cell_does_not(lessons):
    # echo-run needs nothing from the machine (a schedule asked of Celery on a stopped clock measures as much as a
    # live stack); lang-pt and lang-en set the page up; start-stack and close-stack say they measure nothing
    (lessons / "l42_demo" / "experiments").mkdir()
    assert [problem.split(": ", 1)[1].split(" ", 2)[1] for problem in problems(lessons)] == ["'echo-run'"]


def test_an_experiment_cell_passes_and_a_wrong_name_is_located(lessons):
    declare_experiments(lessons)
    lesson = lessons / "l42_demo" / "lesson.md"
    edit(lesson, 'result = stack.app.send_task("l42.echo", ("olá / hello",))\nprint(result.get(timeout=30))',
         '#| experiment: echo\nprint(echo(stack, "olá / hello"))')
    assert problems(lessons) == []
    edit(lesson, "#| experiment: echo", "#| experiment: echo, nothing")
    assert [problem.split(": ", 1)[1] for problem in problems(lessons)] == [
        "cell 'echo-run' names nothing, which is not a module of experiments/"]


def test_a_cell_that_measures_nothing_may_say_so_and_lessons_without_experiments_are_not_held(lessons):
    lesson = lessons / "l42_demo" / "lesson.md"
    edit(lesson, '+++ {"id": "echo-run"}', '+++ {"id": "echo-run", "needs": ["redis-server"]}')
    assert problems(lessons) == []  # no experiments/ folder: the rule does not apply (lessons 01-07 today)
    (lessons / "l42_demo" / "experiments").mkdir()
    assert len(problems(lessons)) == 1
    edit(lesson, '"needs": ["redis-server"]}', '"needs": ["redis-server"], "measures": false}')
    assert problems(lessons) == []


def test_an_experiment_too_long_to_read_in_its_cell_is_reported(lessons):
    declare_experiments(lessons)
    edit(lessons / "l42_demo" / "lesson.md", 'result = stack.app.send_task("l42.echo", ("olá / hello",))',
         '#| experiment: echo\nresult = stack.app.send_task("l42.echo", ("olá / hello",))')
    long = lessons / "l42_demo" / "experiments" / "echo.py"
    long.write_text(ECHO + "".join(f"X{n} = {n}\n" for n in range(60)), encoding="utf-8")
    [problem] = problems(lessons)
    assert problem.endswith("echo.py: an experiment of 63 lines (at most 60): keep only the Celery calls, the rest "
                            "goes to helpers.py")
