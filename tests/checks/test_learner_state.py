"""Progress is kept between sessions in one JSON file written atomically; hints come one level at a time."""
from __future__ import annotations

import subprocess
import sys

import pytest
from grading_files import FIXTURE_COURSE

from celerylab.checks.hints import next_hint
from celerylab.checks.learner_state import LearnerState, home, scope_dir
from celerylab.course import Course


def test_progress_survives_a_new_session(tmp_path):
    LearnerState(course=FIXTURE_COURSE).record("l90.greet", passed=False)
    LearnerState(course=FIXTURE_COURSE).record("l90.greet", passed=True)
    LearnerState(course=FIXTURE_COURSE).record("l90.greet", passed=False)
    again = LearnerState(course=FIXTURE_COURSE)
    assert again.status("l90.greet") == "failing"
    assert again.passed("l90.greet") is True          # once passed, the solution stays unlocked
    assert again.entry("l90.greet")["attempts"] == 3
    assert again.status("l90.double") == "not-started"
    assert (scope_dir("pt", course=FIXTURE_COURSE) / "progress.json").exists()
    assert home() == tmp_path / "home"


def test_progress_is_scoped_per_course_and_language(tmp_path):
    LearnerState(lang="pt", course=FIXTURE_COURSE).record("l90.greet", passed=True)
    assert not LearnerState(lang="en", course=FIXTURE_COURSE).passed("l90.greet")
    pt, en = scope_dir("pt", course=FIXTURE_COURSE), scope_dir("en", course=FIXTURE_COURSE)
    assert pt.parent == en.parent and pt != en
    other = tmp_path / "other-course"
    (other / "lessons").mkdir(parents=True)
    other_course = Course.at(other / "lessons")
    assert not LearnerState(lang="pt", course=other_course).passed("l90.greet")          # another course, its own progress
    assert scope_dir("pt", course=other_course) != pt
    assert scope_dir("pt", course=other_course).parent.name.startswith("other-course-")


def test_progress_needs_a_course_or_a_file():
    with pytest.raises(TypeError):
        LearnerState(lang="pt")


def test_reset_forgets_one_exercise():
    state = LearnerState(lang="pt", course=FIXTURE_COURSE)
    state.record("l90.greet", passed=True)
    state.record("l90.double", passed=False)
    assert state.reset("l90.greet") and not state.reset("l90.greet")
    again = LearnerState(lang="pt", course=FIXTURE_COURSE)
    assert again.status("l90.greet") == "not-started" and again.status("l90.double") == "failing"


@pytest.mark.parametrize("damage", ['{"version": 1, "exercises": {"l90.gr', "[1, 2]", '{"exercises": []}',
                                    '{"exercises": {"l90.greet": {"attempts": "many"}}}', ""])
def test_a_damaged_store_is_kept_aside_and_reported_once(tmp_path, capsys, damage):
    path = tmp_path / "p.json"
    path.write_text(damage)
    state = LearnerState(path)
    assert state.exercises == {}
    kept = list(tmp_path.glob("p.json.damaged-*"))
    assert len(kept) == 1 and kept[0].read_text() == damage
    assert "p.json.damaged-" in capsys.readouterr().err
    state.record("l90.greet", passed=True)
    assert LearnerState(path).passed("l90.greet") and capsys.readouterr().err == ""
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith("p.json.damaged")) == [
        "p.json", "p.json.lock"]


WRITER = """
import sys
from celerylab.checks.learner_state import LearnerState

for number in range(int(sys.argv[3])):
    LearnerState(sys.argv[1]).record(f"{sys.argv[2]}.{number}", passed=number % 2 == 0)
"""


@pytest.mark.live
def test_three_concurrent_writers_keep_every_record(tmp_path):
    path = tmp_path / "progress.json"
    writers = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), name, "120"]) for name in "abc"]
    assert [writer.wait(timeout=120) for writer in writers] == [0, 0, 0]
    state = LearnerState(path)
    assert len(state.exercises) == 360
    assert state.passed("a.0") and not state.passed("c.119") and state.entry("b.7")["attempts"] == 1
    assert not list(tmp_path.glob("*.damaged-*"))


def test_hints_are_revealed_one_level_at_a_time():
    info, course = FIXTURE_COURSE.find_exercise("l90.greet"), FIXTURE_COURSE
    assert next_hint(info, lang="en", course=course) == "💡 Hint 1/3: Look at the lang parameter."
    assert next_hint(info, lang="en", course=course).startswith("💡 Hint 2/3")
    assert next_hint(info, lang="pt", course=course).startswith("💡 Dica 1/3")      # Portuguese progress is its own
    assert next_hint(info, lang="en", course=course).startswith("💡 Hint 3/3")
    everything = next_hint(info, lang="en", course=course)
    assert everything.splitlines()[0] == "All 3 hints of l90.greet were already shown:"
    assert LearnerState(lang="en", course=FIXTURE_COURSE).hints_shown("l90.greet") == 3
