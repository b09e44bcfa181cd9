"""After a pass, ➡ points at an exercise of the same lesson not yet passed, earlier ones included, before the next lesson."""
from __future__ import annotations

from celerylab.course import find_exercise
from celerylab.checks.learner import next_step
from celerylab.checks.learner_state import LearnerState


def test_the_last_exercise_passed_first_points_back_to_the_lessons_first(tmp_path, monkeypatch):
    monkeypatch.delenv("CELERYLAB_COURSE_ROOT", raising=False)  # the real course: several lessons
    progress = LearnerState(lang="en")
    progress.record("l01.charge_once", passed=True)
    text = next_step(find_exercise("l01.charge_once"), progress, "en")
    assert "l01.welcome_once" in text and "l02." not in text


def test_a_lesson_done_points_at_the_next_lesson(tmp_path, monkeypatch):
    monkeypatch.delenv("CELERYLAB_COURSE_ROOT", raising=False)  # the real course: several lessons
    progress = LearnerState(lang="en")
    for name in ("welcome_once", "narrow_autoretry", "payment_upsert", "charge_once"):
        progress.record(f"l01.{name}", passed=True)
    assert "l02.pay_once" in next_step(find_exercise("l01.charge_once"), progress, "en")
