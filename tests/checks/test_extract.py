"""%%writefile cells become files in a folder, never outside it."""
from __future__ import annotations

import nbformat

from celerylab.checks.extract import extract_modules, writefile_target


def test_writefile_parsing():
    assert writefile_target("%%writefile -a mod.py\nx = 1\n") == ("mod.py", "x = 1\n", True)
    assert writefile_target("print(1)") is None


def test_only_exercise_cells_and_only_inside_the_folder(tmp_path):
    notebook = nbformat.v4.new_notebook()
    answer = nbformat.v4.new_code_cell("%%writefile ex_greet.py\ndef greet(n, l):\n    return n")
    answer.metadata["celerylab"] = {"exercise": "greet"}
    escape = nbformat.v4.new_code_cell("%%writefile ../escape.py\nx = 1")
    escape.metadata["celerylab"] = {"exercise": "greet"}
    other = nbformat.v4.new_code_cell("%%writefile scratch.py\nx = 2")
    notebook.cells = [answer, escape, other]
    folder = tmp_path / "work"
    folder.mkdir()
    assert extract_modules(notebook, folder) == ["ex_greet.py"]
    assert sorted(p.name for p in folder.iterdir()) == ["ex_greet.py"]
    assert not (tmp_path / "escape.py").exists()
