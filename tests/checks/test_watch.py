"""Watch mode: each save of the notebook re-extracts its modules into a temp folder and re-checks them."""
from __future__ import annotations

import pytest

import threading
import time

import nbformat

from grading_files import FIXTURE_COURSE, write_notebook
import notebooks

pytestmark = pytest.mark.live


def greet_only(answer: str) -> nbformat.NotebookNode:
    notebook = notebooks.build("en", "exercises", {"greet": answer})
    notebook.cells = [cell for cell in notebook.cells if "greet" in cell.id]
    return notebook


def test_each_save_is_checked(tmp_path):
    from celerylab.checks.watch import watch

    path = write_notebook(tmp_path / "ex.ipynb", greet_only("stub"))
    lines: list[str] = []
    seen = threading.Condition()

    def echo(text: str) -> None:
        with seen:
            lines.append(text)
            seen.notify_all()

    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(path, "en"),
                               kwargs={"stop": stop, "echo": echo, "course": FIXTURE_COURSE})
    watcher.start()
    try:
        with seen:
            assert seen.wait_for(lambda: any("not yet" in line for line in lines), timeout=30)
        write_notebook(path, greet_only("solution"))
        with seen:
            assert seen.wait_for(lambda: any("passed" in line for line in lines), timeout=30)
    finally:
        stop.set()
        watcher.join(10)
    assert not watcher.is_alive()
    assert sum("checking ex.ipynb" in line for line in lines) >= 2
    assert not list(tmp_path.glob("ex_greet.py"))          # modules go to a temp folder, not beside it


def test_a_save_made_before_the_watcher_listens_is_checked(tmp_path):
    """The learner saves while the first round is still running: no event reaches the watcher, the save is checked."""
    from celerylab.checks.watch import watch

    path = write_notebook(tmp_path / "ex.ipynb", greet_only("stub"))
    lines: list[str] = []
    seen = threading.Condition()

    def echo(text: str) -> None:
        if "Waiting for the next save" in text and not any("Waiting" in line for line in lines):
            write_notebook(path, greet_only("solution"))  # saved as the first round ends, before the watcher starts
        with seen:
            lines.append(text)
            seen.notify_all()

    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(path, "en"),
                               kwargs={"stop": stop, "echo": echo, "course": FIXTURE_COURSE})
    watcher.start()
    try:
        with seen:
            assert seen.wait_for(lambda: any("passed" in line for line in lines), timeout=30), lines
    finally:
        stop.set()
        watcher.join(10)
    assert not watcher.is_alive()
    assert [line for line in lines if "not yet" in line or "passed" in line][0].count("not yet") == 1


def test_watch_reveals_no_hint_and_a_watched_lesson_records_nothing(tmp_path):
    from celerylab.checks.hints import next_hint
    from celerylab.checks.learner_state import LearnerState
    from celerylab.checks.watch import check_saved

    path = write_notebook(tmp_path / "ex.ipynb", greet_only("stub"))
    next_hint(FIXTURE_COURSE.find_exercise("l90.greet"), lang="en", course=FIXTURE_COURSE)  # the learner asked once
    for _ in range(2):
        text = "\n".join(check_saved(path, "en", course=FIXTURE_COURSE))
        assert "not yet" in text and "Hint 2/3" not in text and "seen 1 of 3 hints" in text
    assert LearnerState(lang="en", course=FIXTURE_COURSE).hints_shown("l90.greet") == 1
    assert LearnerState(lang="en", course=FIXTURE_COURSE).entry("l90.greet")["attempts"] == 2
    lesson = greet_only("solution")
    lesson.metadata["celerylab"]["variant"] = "lesson"
    text = "\n".join(check_saved(write_notebook(tmp_path / "lesson.ipynb", lesson), "en", course=FIXTURE_COURSE))
    assert "passed" in text and LearnerState(lang="en", course=FIXTURE_COURSE).status("l90.greet") == "failing"
