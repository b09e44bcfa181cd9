"""A notebook cell whose source declares `needs` is skipped, with how to get the need, where the machine lacks it."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest

from celerylab import machine_needs
from celerylab.compiler import parser
from celerylab.compiler.errors import SourceError
from celerylab.testing.nbval_plugin import cell_needs

LESSON = """+++ {"id": "title"}
::: pt
# Título
:::
::: en
# Title
:::

+++ {"id": "plain"}
```python
print("no needs")
```

+++ {"id": "tool", "needs": ["promtool"]}
```python
print("needs promtool")
```
"""


def checkout(root: Path) -> Path:
    """A checkout holding lesson l77_needs (its lesson.md) and its Portuguese notebook, as `celerylab build` names them."""
    lesson = root / "src" / "celerylab" / "lessons" / "l77_needs"
    lesson.mkdir(parents=True)
    (lesson / "lesson.md").write_text(LESSON, encoding="utf-8")
    notebook = nbformat.v4.new_notebook()
    notebook.metadata["celerylab"] = {"lesson": "l77_needs", "lang": "pt", "variant": "lesson"}
    for cell in parser.parse(LESSON)[1:]:
        printed = cell.texts["pt"].split('"')[1] + "\n"
        code = nbformat.v4.new_code_cell(cell.texts["pt"], outputs=[
            nbformat.v4.new_output("stream", name="stdout", text=printed)])
        code.id, code.execution_count = cell.id, len(notebook.cells) + 1
        code.metadata["celerylab"] = {"id": cell.id}
        notebook.cells.append(code)
    path = root / "notebooks" / "pt" / "77_needs.ipynb"
    path.parent.mkdir(parents=True)
    nbformat.write(notebook, path)
    return path


def test_the_parser_keeps_needs_and_refuses_an_unknown_one():
    assert [cell.needs for cell in parser.parse(LESSON)] == [(), (), ("promtool",)]
    with pytest.raises(SourceError):
        parser.parse(LESSON.replace('"promtool"', '"mainframe"'))


def test_cell_needs_are_read_from_the_lesson_source_of_the_notebooks_checkout(tmp_path):
    notebook = checkout(tmp_path)
    assert cell_needs(notebook, "l77_needs") == {"tool": ("promtool",)}
    assert cell_needs(notebook, "l78_absent") == {}
    assert cell_needs(notebook, None) == {}


def test_the_skip_reason_names_the_need_and_how_to_get_it_on_each_platform():
    reason = machine_needs.missing_reason(["rabbitmq-server"])
    assert "\n" not in reason
    for command in ("apt install rabbitmq-server", "dnf install rabbitmq-server", "brew install rabbitmq"):
        assert command in reason
    assert all(machine_needs.HOW_TO_GET[need] for need in machine_needs.CHECKS)


def run_suite(root: Path, **env: str) -> subprocess.CompletedProcess:
    (root / "pytest.ini").write_text(
        "[pytest]\naddopts = -p no:cacheprovider -p celerylab.testing.plugin -p celerylab.testing.nbval_plugin\n"
        "celerylab_nbval_paths = notebooks/pt\n", encoding="utf-8")
    # the outer run's CI and PYTEST_ADDOPTS (an `-n 6` there is an unknown option beside `-p no:xdist`) stay outside
    environment = {key: value for key, value in os.environ.items() if key not in ("CI", "PYTEST_ADDOPTS")}
    environment.update(PATH=str(root / "bin") + os.pathsep + str(Path(sys.executable).parent), **env)
    (root / "bin").mkdir(exist_ok=True)
    return subprocess.run([sys.executable, "-m", "pytest", "-rs", "-p", "no:xdist",
                           "notebooks/pt/77_needs.ipynb::Cell 1"],
                          cwd=root, env=environment, capture_output=True, text=True, timeout=120)


@pytest.mark.live
def test_a_cell_needing_what_the_machine_lacks_is_skipped_with_how_to_get_it(tmp_path):
    checkout(tmp_path)
    run = run_suite(tmp_path)
    assert "1 skipped" in run.stdout, run.stdout[-2000:]
    assert "promtool" in run.stdout and "apt install prometheus" in run.stdout


@pytest.mark.live
def test_in_ci_a_cell_needing_what_the_machine_lacks_runs(tmp_path):
    checkout(tmp_path)
    run = run_suite(tmp_path, CI="1")
    assert "1 passed" in run.stdout, run.stdout[-2000:]


@pytest.mark.live
def test_a_cell_whose_need_is_met_runs(tmp_path):
    checkout(tmp_path)
    tool = tmp_path / "bin" / "promtool"
    tool.parent.mkdir()
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    run = run_suite(tmp_path)
    assert "1 passed" in run.stdout, run.stdout[-2000:]
