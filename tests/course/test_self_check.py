"""The course self-check: every exercise fails unsolved and on each of its wrong answers, and passes solved (solutions/, under nbval)."""
from __future__ import annotations

from pathlib import Path

import nbformat
import pytest

from celerylab import rejections, wrong_answers
from celerylab.checks.check_run import run_check
from celerylab.checks.extract import extract_modules
from celerylab.checks.render import verdict_text
from celerylab.checks.verdict import Verdict
from celerylab.course import Course
from celerylab.i18n import LANGS

ROOT = Path(__file__).resolve().parents[2]
COURSE = Course.at_checkout(ROOT)
EXERCISES = COURSE.all_exercises()
LESSONS = {lesson.name: lesson for lesson in COURSE.lessons()}
WRONG = [(exercise, answer) for exercise in EXERCISES
         for answer in wrong_answers.of_exercise(COURSE.lessons_dir / exercise.lesson, exercise.name)]


def notebook_path(lesson: str, lang: str, variant: str) -> Path:
    return COURSE.notebook_path(lesson, lang, variant)


def cell_meta(cell) -> dict:
    return cell.metadata.get("celerylab", {})


def hidden_only_vary_inputs(verdict: Verdict) -> list:
    """Hidden criteria whose key no visible criterion has: a requirement checked only at grading."""
    visible = {repr(c.key) for c in verdict.criteria if not c.hidden}
    return [c.key for c in verdict.criteria if c.hidden and repr(c.key) not in visible]


def proven_already(lesson: str, answer: wrong_answers.WrongAnswer) -> bool:
    """Whether a live run rejected `answer` on exactly today's inputs (celerylab.rejections), unless recording."""
    return not rejections.recording() and rejections.still_proven(LESSONS[lesson], answer) is not None


def record_rejection(lesson: str, answer: wrong_answers.WrongAnswer, verdict: Verdict) -> None:
    """When recording, keep the live run's first failed criterion under the answer's digest."""
    if rejections.recording():
        failed = next(criterion for criterion in verdict.criteria if not criterion.passed)
        rejections.record(LESSONS[lesson], answer,
                          rejections.Rejection(rejections.answer_digest(LESSONS[lesson], answer), repr(failed.key)))


def test_a_hidden_criterion_must_repeat_a_visible_one():
    from celerylab.checks.verdict import Criterion

    varied = Verdict("l90.greet", [Criterion("k.a", 1, 1, True), Criterion("k.a", 2, 2, True, hidden=True)])
    stated_only_at_grading = Verdict("l90.greet", [Criterion("k.a", 1, 1, True), Criterion("k.b", 1, 1, True, hidden=True)])
    assert hidden_only_vary_inputs(varied) == []
    assert hidden_only_vary_inputs(stated_only_at_grading) == ["k.b"]


def test_the_course_has_exercises():
    assert len(EXERCISES) >= 3


def test_every_exercise_keeps_two_described_wrong_answers():
    for exercise in EXERCISES:
        answers = [answer for owner, answer in WRONG if owner == exercise]
        assert len(answers) >= wrong_answers.MINIMUM, f"{exercise.id}: {len(answers)} wrong answer(s)"
        assert all(answer.described for answer in answers), [a.path.name for a in answers if not a.described]


#: The course's own bar, above what `dev check` asks of a new lesson (wrong_answers.MINIMUM): five wrong answers per
#: exercise, three of them written blind, by someone given only the exercises notebook ("Blind review." in the
#: docstring's first line), since answers written knowing the check missed what outsiders found.
COURSE_MINIMUM, BLIND_MINIMUM, BLIND_MARK = 5, 3, "Blind review."


def short_of_the_course_bar(answers: list[wrong_answers.WrongAnswer]) -> str:
    """Why an exercise's wrong answers fall short of the course's bar ("" when they do not)."""
    blind = sum(1 for answer in answers if answer.summary.rstrip().endswith(BLIND_MARK))
    if len(answers) < COURSE_MINIMUM or blind < BLIND_MINIMUM:
        return f"{len(answers)} wrong answer(s), {blind} blind (needs {COURSE_MINIMUM}, {BLIND_MINIMUM} blind)"
    return ""


def test_the_course_bar_counts_only_answers_marked_blind(tmp_path):
    def answer(slug: str, summary: str) -> wrong_answers.WrongAnswer:
        path = tmp_path / f"ex__{slug}.py"
        path.write_text(f'"""{summary}\n"""\n', encoding="utf-8")
        return wrong_answers.WrongAnswer("ex", slug, path)

    mine = [answer(f"m{i}", 'Wrong. Violates: "x".') for i in range(3)]
    blind = [answer(f"b{i}", 'Wrong. Violates: "x". Blind review.') for i in range(3)]
    assert short_of_the_course_bar(mine + blind[:2]) == "5 wrong answer(s), 2 blind (needs 5, 3 blind)"
    assert short_of_the_course_bar(blind + mine[:1]) == "4 wrong answer(s), 3 blind (needs 5, 3 blind)"
    assert short_of_the_course_bar(blind + mine[:2]) == ""


def test_every_exercise_keeps_five_wrong_answers_three_of_them_blind():
    short = {exercise.id: short_of_the_course_bar([a for owner, a in WRONG if owner == exercise])
             for exercise in EXERCISES}
    assert not {key: why for key, why in short.items() if why}


@pytest.mark.live
@pytest.mark.parametrize("exercise_id,lesson", [(e.id, e.lesson) for e in EXERCISES])
def test_check_fails_on_the_unsolved_exercise(exercise_id, lesson, tmp_path):
    """One run, on the Portuguese stub: the English exercises notebook holds the same code, comments aside
    (tests/compiler/test_language_parity.py), so its run would judge the very same module. Like a wrong answer, the
    stub runs live only when the record has no rejection on exactly today's inputs (celerylab.rejections)."""
    notebook = nbformat.read(notebook_path(lesson, "pt", "exercises"), as_version=4)
    assert extract_modules(notebook, tmp_path)
    exercise = COURSE.find_exercise(exercise_id)
    stub = rejections.unsolved(exercise.name, tmp_path / f"{exercise.module}.py")
    if proven_already(lesson, stub):
        return
    verdict = run_check(exercise, tmp_path, include_hidden=True)
    assert verdict.passed is False, verdict_text(verdict, "en")
    assert verdict.error is None, f"the stub must run and be judged, not crash: {verdict.error}"
    assert not hidden_only_vary_inputs(verdict), "a requirement the statement lists must run live, not hidden"
    record_rejection(lesson, stub, verdict)


@pytest.mark.live
@pytest.mark.parametrize("exercise,answer", WRONG, ids=[f"{e.id}-{a.slug}" for e, a in WRONG])
def test_check_fails_on_each_wrong_answer(exercise, answer, tmp_path):
    """The answers share their code across languages (the compiler refuses pt/en code that differs), so one run each,
    which stops at the first failed criterion: the verdict is all this test needs (the stub's run above keeps
    every criterion, for the hidden-criteria rule)."""
    if proven_already(exercise.lesson, answer):
        return  # a live run rejected it on exactly today's inputs: nothing new to prove
    answer.install(tmp_path, exercise.module)
    verdict = run_check(exercise, tmp_path, include_hidden=True, stop_at_first_failure=True)
    assert verdict.error is None, f"{answer.path.name} must run and be judged, not crash: {verdict.error}"
    assert verdict.passed is False, f"{answer.path.name} ({answer.summary}) passed:\n{verdict_text(verdict, 'en')}"
    assert not hidden_only_vary_inputs(verdict), "a requirement the statement lists must run live, not hidden"
    record_rejection(exercise.lesson, answer, verdict)


@pytest.mark.parametrize("exercise_id,lesson,lang",
                         [(e.id, e.lesson, lang) for e in EXERCISES for lang in LANGS])
def test_the_solutions_notebook_runs_the_solved_exercise_and_its_check(exercise_id, lesson, lang):
    """nbval re-executes solutions/, hidden criteria included: that run proves the solution passes."""
    notebook = nbformat.read(notebook_path(lesson, lang, "solutions"), as_version=4)
    answers = [c for c in notebook.cells if cell_meta(c).get("exercise") == exercise_id]
    checks = [c for c in notebook.cells if cell_meta(c).get("check") == exercise_id]
    assert answers and checks, f"{exercise_id}: the solutions notebook must hold its solved answer and its check"
    assert "### BEGIN" not in answers[0].source
    printed = "".join(o.get("text", "") for c in checks for o in c.get("outputs", []))
    assert f"✅ {exercise_id}:" in printed, (
        f"{exercise_id}: the committed check output (which nbval compares) must be a pass: {printed!r}")


@pytest.mark.parametrize("lesson,lang", [(lesson, lang) for lesson in sorted({e.lesson for e in EXERCISES})
                                         for lang in LANGS])
def test_the_lesson_notebook_shows_no_answer(lesson, lang):
    """What the lab opens: each exercise's statement and a pointer to the exercises notebook, no solution, no ✅."""
    notebook = nbformat.read(notebook_path(lesson, lang, "lesson"), as_version=4)
    assert not [c.id for c in notebook.cells if cell_meta(c).get("exercise") or cell_meta(c).get("check")]
    assert not [c.id for c in notebook.cells if "### BEGIN" in c.source or "%%writefile ex_" in c.source]
    printed = "".join(o.get("text", "") for c in notebook.cells for o in c.get("outputs", []))
    assert "✅" not in printed
    pointers = [c for c in notebook.cells if cell_meta(c).get("points_to")]
    exercises_notebook = notebook_path(lesson, lang, "exercises").name
    ids = sorted(e.id for e in EXERCISES if e.lesson == lesson)
    assert sorted(cell_meta(c)["points_to"] for c in pointers) == ids
    assert all(exercises_notebook in c.source for c in pointers)


@pytest.mark.parametrize("lesson", sorted({exercise.lesson for exercise in EXERCISES}))
def test_pt_and_en_have_the_same_exercises_checks_and_hints(lesson):
    def shape(lang: str, variant: str) -> list:
        notebook = nbformat.read(notebook_path(lesson, lang, variant), as_version=4)
        return [(cell.id, cell_meta(cell).get("exercise"), cell_meta(cell).get("check"))
                for cell in notebook.cells if not cell_meta(cell).get("lang")]

    for variant in ("exercises", "solutions"):
        assert shape("pt", variant) == shape("en", variant)
    for exercise in (e for e in EXERCISES if e.lesson == lesson):
        assert set(exercise.title) == {"pt", "en"}
        assert exercise.hints and all(set(hint) == {"pt", "en"} for hint in exercise.hints)
