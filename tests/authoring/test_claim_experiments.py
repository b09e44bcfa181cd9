"""`celerylab dev check`: every claim test observes through an experiment of its lesson that a measured cell shows."""
from __future__ import annotations

from celerylab.authoring import course_check
from celerylab.authoring.course_check import check_course
from celerylab.course import Course

from .conftest import edit

CALL = 'seen = echo(stack, "olá / hello")'
EXPERIMENT_IMPORT = "from celerylab.lessons.l42_demo.experiments.echo import echo\n"
QUIET = '"""Never shown by a cell."""\n\n\ndef quiet(stack):\n    return stack\n'


def report(lessons):
    return check_course(Course.at(lessons), root=lessons.parent / "out", freshness=False)


def problems(lessons) -> list[str]:
    return [problem.render().split(": ", 1)[1] for problem in report(lessons).problems]


def claim_test(lessons):
    return lessons / "l42_demo" / "test_claims_demo.py"


def test_the_scaffolded_claim_test_calls_its_shown_experiment(lessons):
    assert CALL in claim_test(lessons).read_text(encoding="utf-8")
    assert problems(lessons) == []


def test_a_body_that_only_calls_helpers_fails_and_only_by_this_rule(lessons, monkeypatch):
    edit(claim_test(lessons), CALL, 'seen = helpers.echo_scenario(stack, "olá / hello")')
    assert problems(lessons) == [
        "claim test 'test_the_worker_returns_what_it_is_sent' calls no experiment of the lesson (neither in its body "
        "nor in a fixture it requests): take its observation from an experiments/ module a cell shows, or say in "
        "claims.yml, with no_experiment: {pt, en}, why the claim measures nothing live"]
    monkeypatch.setattr(course_check, "claim_experiment_problems", lambda folder, cells, described: ([], []))
    assert problems(lessons) == []


def test_a_fixture_chain_reaching_the_experiment_passes_and_breaks_with_its_last_link(lessons):
    # the test requests `seen` (its module), which requests `echoed` (the lesson's conftest), which calls the
    # experiment, imported relatively; the body only reads what the chain measured
    test = claim_test(lessons)
    edit(test, EXPERIMENT_IMPORT, "")
    edit(test, "def test_the_worker_returns_what_it_is_sent(stack, observe):\n    " + CALL,
         "@pytest.fixture\ndef seen(echoed):\n    return echoed\n\n\n"
         "def test_the_worker_returns_what_it_is_sent(seen, observe):")
    conftest = lessons / "l42_demo" / "conftest.py"
    edit(conftest, "import pytest\n", "import pytest\n\nfrom .experiments.echo import echo\n")
    conftest.write_text(conftest.read_text(encoding="utf-8") + '\n\n@pytest.fixture(scope="module")\n'
                        'def echoed(stack):\n    return echo(stack, "olá / hello")\n', encoding="utf-8")
    assert problems(lessons) == []
    edit(conftest, 'return echo(stack, "olá / hello")', "return stack")
    assert [problem.split(" calls ")[0] for problem in problems(lessons)] == [
        "claim test 'test_the_worker_returns_what_it_is_sent'"]


def test_a_helper_of_the_test_module_and_a_parametrized_experiment_count(lessons):
    test = claim_test(lessons)
    edit(test, CALL, "seen = measured(stack)")
    test.write_text(test.read_text(encoding="utf-8") + '\n\ndef measured(stack):\n    return echo(stack, "x")\n\n\n'
                    '@pytest.mark.parametrize("run", [echo])\ndef test_each(stack, observe, run):\n'
                    '    observe(seen=run(stack, "y").returned)\n', encoding="utf-8")
    (lessons / "l42_demo" / "claims.yml").write_text(
        (lessons / "l42_demo" / "claims.yml").read_text(encoding="utf-8")
        + "test_each:\n  cell: echo-run\n  pt: Cada um.\n  en: Each one.\n", encoding="utf-8")
    assert problems(lessons) == []


def test_an_experiment_no_cell_shows_fails(lessons):
    (lessons / "l42_demo" / "experiments" / "quiet.py").write_text(QUIET, encoding="utf-8")
    test = claim_test(lessons)
    edit(test, EXPERIMENT_IMPORT, EXPERIMENT_IMPORT + "from celerylab.lessons.l42_demo.experiments.quiet import quiet\n")
    edit(test, CALL, CALL + "\n    quiet(stack)")
    assert problems(lessons) == [
        "claim test 'test_the_worker_returns_what_it_is_sent' observes through quiet, which no measured cell of the "
        "lesson shows: show it in a cell (`#| experiment: name`) or use the experiment the cell already shows"]


def test_a_cell_that_measures_nothing_shows_no_experiment_for_the_rule(lessons):
    lesson = lessons / "l42_demo" / "lesson.md"
    edit(lesson, '+++ {"id": "echo-run"}', '+++ {"id": "echo-run", "measures": false}')
    assert [problem.split(" observes ")[1] for problem in problems(lessons)] == [
        "through echo, which no measured cell of the lesson shows: show it in a cell (`#| experiment: name`) or use "
        "the experiment the cell already shows"]


def test_another_lessons_experiment_does_not_count(lessons):
    edit(claim_test(lessons), "lessons.l42_demo.experiments", "lessons.l01_retries.experiments")
    assert [problem.split(" calls ")[1][:27] for problem in problems(lessons)] == ["no experiment of the lesson"]


def test_an_exemption_says_why_in_both_languages_and_is_listed(lessons):
    edit(claim_test(lessons), CALL, "seen = stack.app.conf.task_serializer")
    claims = lessons / "l42_demo" / "claims.yml"
    claims.write_text(claims.read_text(encoding="utf-8") + "  no_experiment:\n    pt: Lê a configuração.\n",
                      encoding="utf-8")
    assert problems(lessons) == ["the no_experiment of 'test_the_worker_returns_what_it_is_sent' in claims.yml must "
                                 "say, in pt and en, why the claim measures nothing live"]
    claims.write_text(claims.read_text(encoding="utf-8") + "    en: It reads the configuration.\n", encoding="utf-8")
    checked = report(lessons)
    assert checked.problems == []
    assert [line.render().split(": ", 1)[1] for line in checked.exempt] == [
        "claim test 'test_the_worker_returns_what_it_is_sent' observes through no experiment (no_experiment in "
        "claims.yml says why)"]
