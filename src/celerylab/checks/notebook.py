"""The check() and hint() calls learners run in notebook cells, printing feedback in their language."""
from __future__ import annotations

from pathlib import Path

from celerylab.checks.hints import next_hint
from celerylab.checks.learner import check_and_record, grading_in_progress
from celerylab.checks.verdict import Verdict
from celerylab.course import Course
from celerylab.i18n import t


class _Shown(Verdict):
    """A verdict whose repr is empty, so the feedback is not printed twice in a notebook."""

    def __repr__(self) -> str:
        return ""

    def _ipython_display_(self) -> None:
        """Already printed: a notebook shows nothing more for the returned value."""


class _Text(str):
    def __repr__(self) -> str:
        return ""

    def _ipython_display_(self) -> None:
        """Already printed."""


def check(exercise_id: str, workdir: str | Path = ".", *, course: Course | None = None) -> Verdict:
    """Check one exercise on a live stack and print what was expected and observed.

    Progress is recorded only from an exercises notebook: the lesson and solutions notebooks run the
    solved answers, and their passes are not the learner's (the notebook is known from the path
    Jupyter gives the kernel, else from the course notebooks in the kernel's folder). `course`: the
    kernel's own (`Course.of_process`: the package's unless the grader or the lab said otherwise).
    """
    if grading_in_progress():
        print(t("grading.deferred", exercise=exercise_id))
        return _Shown(exercise_id)
    from celerylab.checks.check_origin import counts, notebook_path, notebook_variant

    course = course or Course.of_process()
    verdict, text = check_and_record(course.find_exercise(exercise_id), workdir, course=course,
                                     counted=counts(notebook_variant(workdir)), notebook=notebook_path())
    print(text)
    return _Shown(verdict.exercise_id, verdict.criteria, verdict.error, verdict.missing_module)


def hint(exercise_id: str, *, course: Course | None = None) -> str:
    """Reveal the next hint of one exercise (one level per call); `course` as for check()."""
    course = course or Course.of_process()
    text = next_hint(course.find_exercise(exercise_id), course=course)
    print(text)
    return _Text(text)
