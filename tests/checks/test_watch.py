"""Watch mode: each save of the notebook re-extracts its modules into a temp folder and re-checks them."""
from __future__ import annotations

import threading

import nbformat
import pytest
from grading_files import FIXTURE_COURSE, write_notebook

import notebooks
from celerylab.checks.learner_state import NOT_STARTED

pytestmark = pytest.mark.live


def greet_only(answer: str) -> nbformat.NotebookNode:
    notebook = notebooks.build("en", "exercises", {"greet": answer})
    notebook.cells = [cell for cell in notebook.cells if "greet" in cell.id]
    return notebook


class Watching:
    """`watch` on a thread, its echoed lines kept; `on_line(text)` runs first, on the watcher's thread."""

    def __init__(self, path, on_line=lambda text: None):
        from celerylab.checks.watch import watch

        self.lines: list[str] = []
        self.seen = threading.Condition()
        self.stop = threading.Event()

        def echo(text: str) -> None:
            on_line(text)
            with self.seen:
                self.lines.append(text)
                self.seen.notify_all()

        self.thread = threading.Thread(target=watch, args=(path, "en"),
                                       kwargs={"stop": self.stop, "echo": echo, "course": FIXTURE_COURSE})

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        self.thread.join(10)
        assert not self.thread.is_alive()

    def wait_for(self, text: str, timeout: float = 30) -> bool:
        with self.seen:
            return self.seen.wait_for(lambda: any(text in line for line in self.lines), timeout=timeout)


WRONG = "%%writefile ex_greet.py\ndef greet(name, lang):\n    return 'hi'"


def test_each_save_is_checked(tmp_path):
    path = write_notebook(tmp_path / "ex.ipynb", greet_only(WRONG))
    with Watching(path) as watching:
        assert watching.wait_for("not yet")
        write_notebook(path, greet_only("solution"))
        assert watching.wait_for("passed")
    assert sum("checking ex.ipynb" in line for line in watching.lines) >= 2
    assert not list(tmp_path.glob("ex_greet.py"))          # modules go to a temp folder, not beside it


def test_a_save_made_before_the_watcher_listens_is_checked(tmp_path):
    """The learner saves while the first round is still running: no event reaches the watcher, the save is checked."""
    path = write_notebook(tmp_path / "ex.ipynb", greet_only(WRONG))
    saved = []

    def save_as_the_first_round_ends(text: str) -> None:
        if "Waiting for the next save" in text and not saved:  # before the watcher starts listening
            write_notebook(path, greet_only("solution"))
            saved.append(True)

    with Watching(path, save_as_the_first_round_ends) as watching:
        assert watching.wait_for("passed"), watching.lines
    assert [line for line in watching.lines if "not yet" in line or "passed" in line][0].count("not yet") == 1


def test_watch_reveals_no_hint_and_a_watched_lesson_records_nothing(tmp_path):
    from celerylab.checks.hints import next_hint
    from celerylab.checks.learner_state import LearnerState
    from celerylab.checks.watch import check_saved

    path = write_notebook(tmp_path / "ex.ipynb", greet_only(WRONG))
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


def test_an_untouched_exercise_is_not_checked_and_stays_not_started(tmp_path):
    """The whole exercises notebook, every answer cell still its stub: nothing is checked nor recorded."""
    from celerylab.checks.learner_state import LearnerState
    from celerylab.checks.watch import check_saved

    path = write_notebook(tmp_path / "ex.ipynb", notebooks.build("en", "exercises"))
    text = "\n".join(check_saved(path, "en", course=FIXTURE_COURSE, checked={}))
    assert text.count("not started yet") == 2 and "not yet" not in text.replace("not started yet", "")
    assert LearnerState(lang="en", course=FIXTURE_COURSE).status("l90.greet") == NOT_STARTED


def test_only_the_exercise_whose_answer_changed_is_checked_again(tmp_path):
    from celerylab.checks.learner_state import LearnerState
    from celerylab.checks.watch import check_saved

    checked: dict[str, str] = {}
    path = write_notebook(tmp_path / "ex.ipynb", notebooks.build("en", "exercises", {"greet": WRONG}))
    assert "not yet" in "\n".join(check_saved(path, "en", course=FIXTURE_COURSE, checked=checked))
    again = "\n".join(check_saved(path, "en", course=FIXTURE_COURSE, checked=checked))
    assert "l90.greet: answer unchanged since its last check" in again
    assert LearnerState(lang="en", course=FIXTURE_COURSE).entry("l90.greet")["attempts"] == 1
    assert LearnerState(lang="en", course=FIXTURE_COURSE).status("l90.double") == NOT_STARTED
