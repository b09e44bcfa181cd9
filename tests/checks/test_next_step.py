"""After a pass, ➡ points at an exercise of the same lesson not yet passed, earlier ones included, before the next lesson."""
from __future__ import annotations

from celerylab.checks.learner import next_step
from celerylab.checks.learner_state import LearnerState
from celerylab.course import Course

COURSE = Course.at()  # the package's course: several lessons


def test_the_last_exercise_passed_first_points_back_to_the_lessons_first():
    progress = LearnerState(lang="en", course=COURSE)
    progress.record("l01.charge_once", passed=True)
    text = next_step(COURSE.find_exercise("l01.charge_once"), progress, "en", course=COURSE)
    assert "l01.welcome_once" in text and "l02." not in text


def test_a_lesson_done_points_at_the_next_lesson():
    progress = LearnerState(lang="en", course=COURSE)
    for name in ("welcome_once", "narrow_autoretry", "payment_upsert", "charge_once"):
        progress.record(f"l01.{name}", passed=True)
    assert "l02.pay_once" in next_step(COURSE.find_exercise("l01.charge_once"), progress, "en", course=COURSE)
