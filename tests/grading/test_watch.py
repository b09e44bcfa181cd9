"""Watch mode: each save of the notebook re-extracts its modules into a temp folder and re-checks them."""
from __future__ import annotations

import pytest

import threading
import time

import nbformat

from conftest import write_notebook
import notebooks

pytestmark = pytest.mark.live


def greet_only(answer: str) -> nbformat.NotebookNode:
    notebook = notebooks.build("en", "exercises", {"greet": answer})
    notebook.cells = [cell for cell in notebook.cells if "greet" in cell.id]
    return notebook


def test_each_save_is_checked(tmp_path):
    from celerylab.grading.watch import watch

    path = write_notebook(tmp_path / "ex.ipynb", greet_only("stub"))
    lines: list[str] = []
    seen = threading.Condition()

    def echo(text: str) -> None:
        with seen:
            lines.append(text)
            seen.notify_all()

    stop = threading.Event()
    watcher = threading.Thread(target=watch, args=(path, "en"), kwargs={"stop": stop, "echo": echo})
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
