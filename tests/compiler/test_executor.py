"""The executor names the notebook and the cell that failed, and runs notebooks side by side."""
from __future__ import annotations

from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell, new_notebook

from celerylab.compiler.executor import execute_all
from celerylab.compiler.model import Lesson, Target
from celerylab.i18n import set_lang

pytestmark = pytest.mark.live  # starts processes


def notebook(*sources):
    cells = [new_code_cell(source, id=f"c{i}") for i, source in enumerate(sources)]
    return new_notebook(cells=cells, metadata={"celerylab": {"lang": "en"}})


def test_failure_names_notebook_and_cell():
    target = Target(Lesson("l98_broken", Path("/nowhere")), "en", "lesson")
    good = Target(Lesson("l98_broken", Path("/nowhere")), "en", "solutions")
    jobs = [(target, notebook("x = 1", "raise RuntimeError('boom')", "y = 2")),
            (good, notebook("import os, celerylab.i18n as i\nprint(i.get_lang(), os.getcwd())"))]
    set_lang("en")
    try:
        failed, passed = execute_all(jobs, timeout=60)
    finally:
        set_lang("pt")
    assert failed.notebook is None
    assert failed.error == "notebooks/en/98_broken.ipynb: cell 'c1' failed: RuntimeError: boom"
    assert passed.error is None
    text = passed.notebook.cells[0].outputs[0].text
    assert text.startswith("en ") and "celerylab-build-" in text
