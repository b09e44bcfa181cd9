"""Watch mode: re-check the exercises whose answer changed each time the notebook is saved (hints only on request)."""
from __future__ import annotations

import tempfile
import threading
import time
from pathlib import Path

import nbformat

from celerylab.checks.check_origin import counts
from celerylab.checks.extract import extract_modules
from celerylab.checks.learner import check_and_record
from celerylab.checks.stubs import answer_cells, untouched
from celerylab.course import Course
from celerylab.i18n import t
from celerylab.notebook_meta import NotebookMeta


def exercises_written(notebook: nbformat.NotebookNode, written: list[str], *, course: Course) -> list:
    """The exercises whose module the notebook writes (its lesson's, when the metadata says)."""
    lesson = NotebookMeta.of(notebook).lesson
    pool = course.exercises(lesson) if lesson else course.all_exercises()
    return [info for info in pool if f"{info.module}.py" in written]


def check_saved(path: str | Path, lang: str | None = None, *, course: Course,
                checked: dict[str, str] | None = None) -> list[str]:
    """One round: extract the modules of the saved notebook into a temp folder and check there the exercises
    whose answer cell is no longer the stub and, given `checked` (answer cell per exercise at its last check,
    updated here), changed since then. An untouched exercise is not checked: it stays "not started"."""
    try:
        notebook = nbformat.read(str(path), as_version=4)
    except Exception as error:  # a half-written or broken save: say so and wait for the next one
        return [t("watch.unreadable", lang=lang, path=path, error=error)]
    meta = NotebookMeta.of(notebook)
    lang = lang or meta.lang  # else the notebook's language
    counted = counts(meta.variant)  # watching the lesson or the solutions records nothing
    with tempfile.TemporaryDirectory(prefix="celerylab-watch-") as folder:
        written = extract_modules(notebook, folder)
        chosen = exercises_written(notebook, written, course=course)
        if not chosen:
            return [t("watch.nothing", lang=lang, path=path)]
        lines = []
        for info in chosen:
            answer = "\n".join(cell.source for cell in answer_cells(notebook, info))
            if untouched(notebook, info, meta.lang or lang or "pt"):
                lines.append(t("watch.not_started", lang=lang, exercise=info.id))
            elif checked is not None and checked.get(info.id) == answer:
                lines.append(t("watch.unchanged", lang=lang, exercise=info.id))
            else:
                lines.append(check_and_record(info, folder, lang, course=course, counted=counted,
                                              notebook=path)[1])
                if checked is not None:
                    checked[info.id] = answer
        return lines


def saved_state(path: Path) -> tuple[int, int] | None:
    """What tells one save of `path` from another: its modification time and size (None while it is missing)."""
    try:
        stat = path.stat()
    except OSError:
        return None
    return stat.st_mtime_ns, stat.st_size


def watch(path: str | Path, lang: str | None = None, *, course: Course, stop: threading.Event | None = None,
          echo=print) -> int:
    """Check now, then after every save of `path`, until `stop` is set (or Ctrl-C); returns rounds run.

    A save is found by its event or, every half second, by `saved_state`: a save made before the watcher was
    listening (during the first round) or whose event was missed is still checked.
    """
    import watchfiles

    path = Path(path).resolve()
    rounds = 0
    answers: dict[str, str] = {}  # each exercise's answer cell when it was last checked

    def one_round() -> tuple[int, int] | None:
        nonlocal rounds
        checked = saved_state(path)  # before reading: a save during the round differs from it
        echo(t("watch.round", lang=lang, path=path.name, time=time.strftime("%H:%M:%S")))
        for text in check_saved(path, lang, course=course, checked=answers):
            echo(text)
        rounds += 1
        echo(t("watch.waiting", lang=lang, path=path.name))
        return checked

    checked = one_round()
    for changes in watchfiles.watch(path.parent, stop_event=stop, debounce=200, rust_timeout=500,
                                    yield_on_timeout=True, raise_interrupt=False):
        named = any(Path(changed).resolve() == path for _, changed in changes)
        if path.exists() and (named or saved_state(path) != checked):
            checked = one_round()
    return rounds
