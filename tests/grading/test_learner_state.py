"""Progress is kept between sessions in one JSON file written atomically; hints come one level at a time."""
from __future__ import annotations

import json

from celerylab.course import find_exercise
from celerylab.grading.atomic import write_json
from celerylab.grading.hints import next_hint
from celerylab.grading.learner_state import LearnerState, home


def test_progress_survives_a_new_session(tmp_path):
    LearnerState().record("l90.greet", passed=False)
    LearnerState().record("l90.greet", passed=True)
    LearnerState().record("l90.greet", passed=False)
    again = LearnerState()
    assert again.status("l90.greet") == "failing"
    assert again.passed("l90.greet") is True          # once passed, the solution stays unlocked
    assert again.entry("l90.greet")["attempts"] == 3
    assert again.status("l90.double") == "not-started"
    assert (home() / "progress.json").exists()
    assert home() == tmp_path / "home"


def test_a_corrupt_store_reads_as_empty_and_atomic_writes_leave_no_temp_files(tmp_path):
    path = tmp_path / "p.json"
    path.write_text("{not json")
    assert LearnerState(path).exercises == {}
    write_json(path, {"a": 1})
    assert json.loads(path.read_text()) == {"a": 1}
    assert [p.name for p in tmp_path.iterdir()] == ["p.json"]


def test_hints_are_revealed_one_level_at_a_time():
    info = find_exercise("l90.greet")
    assert next_hint(info, lang="en") == "💡 Hint 1/3: Look at the lang parameter."
    assert next_hint(info, lang="pt").startswith("💡 Dica 2/3: 'pt' cumprimenta")
    assert next_hint(info, lang="en").startswith("💡 Hint 3/3")
    everything = next_hint(info, lang="en")
    assert everything.splitlines()[0] == "All 3 hints of l90.greet were already shown:"
    assert LearnerState().hints_shown("l90.greet") == 3
