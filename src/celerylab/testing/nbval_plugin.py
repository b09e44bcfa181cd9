"""pytest plugin: nbval on the generated notebooks, each kernel in a fresh temp folder and the notebook's language;
a cell whose source declares `needs` carries the `needs` marker (skipped, with how to get it, where the machine lacks it)."""
from __future__ import annotations

import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from nbval.kernel import CURRENT_ENV_KERNEL_NAME, RunningKernel, start_new_kernel
from nbval.plugin import IPyNbFile

from celerylab.compiler import parser
from celerylab.compiler.executor import KERNEL, kernel_env
from celerylab.course import Course
from celerylab.notebook_meta import CellMeta, NotebookMeta

SANITIZE_FILE = Path(__file__).with_name("nbval_sanitize.txt")
PATHS_INI = "celerylab_nbval_paths"


def pytest_addoption(parser) -> None:
    parser.addini(PATHS_INI, type="paths", default=[],
                  help="folders whose notebooks are validated with nbval (e.g. notebooks solutions)")


def pytest_collect_file(file_path: Path, parent):
    """Collect *.ipynb under the configured folders only (plain --nbval would take every notebook)."""
    option = parent.config.option
    if file_path.suffix != ".ipynb" or option.nbval or option.nbval_lax:
        return None
    roots = [Path(root).resolve() for root in parent.config.getini(PATHS_INI)]
    if any(file_path.resolve().is_relative_to(root) for root in roots):
        notebook = LessonNotebook.from_parent(parent, path=file_path)
        notebook.add_marker("live")
        return notebook
    return None


def cell_needs(notebook: Path, lesson: str | None) -> dict[str, tuple[str, ...]]:
    """What each cell of `lesson` needs from the machine, by cell id, read from the lesson.md of the checkout holding
    `notebook` (``<checkout>/notebooks/pt/01_retries.ipynb``); nothing for a notebook outside a checkout."""
    source = Course.at_checkout(notebook.resolve().parents[2]).lessons_dir / (lesson or "") / "lesson.md"
    if not lesson or not source.is_file():
        return {}
    return {cell.id: cell.needs for cell in parser.parse_file(source) if cell.needs}


class LessonKernel(RunningKernel):
    """nbval's kernel, started with an environment of our choosing, executing cells as nbclient does."""

    def __init__(self, kernel_name: str, cwd: str, env: dict, startup_timeout: float):
        self.km, self.kc = start_new_kernel(startup_timeout=startup_timeout, kernel_name=kernel_name,
                                            stderr=subprocess.DEVNULL, cwd=cwd, env=env)
        self._ensure_iopub_up()

    def execute_cell_input(self, cell_input, allow_stdin=None):
        """As nbval, but stored in history like nbclient does: IPython's trailing-`;` silencing reads it."""
        return self.kc.execute(cell_input, store_history=True, allow_stdin=allow_stdin, stop_on_error=False)


class LessonNotebook(IPyNbFile):
    """One notebook = one pytest scope (xdist loadscope keeps its cells on one worker, in order)."""

    workdir: str | None = None

    def collect(self):
        cells = list(super().collect())
        needs = cell_needs(self.path, NotebookMeta.of(self.nb).lesson)
        for item in cells:
            wanted = needs.get(CellMeta.of(item.cell).id or "")
            if wanted:
                item.add_marker(pytest.mark.needs(*wanted))
        return cells

    def setup(self) -> None:
        option = self.config.option
        if option.nbval_current_env:
            kernel_name = CURRENT_ENV_KERNEL_NAME
        else:
            kernel_name = option.nbval_kernel_name or self.nb.metadata.get("kernelspec", {}).get("name", KERNEL)
        lang = NotebookMeta.of(self.nb).lang or "pt"
        self.workdir = tempfile.mkdtemp(prefix="celerylab-nbval-")
        self.kernel = LessonKernel(kernel_name, self.workdir, kernel_env(lang, self.workdir),
                                   option.nbval_kernel_startup_timeout)
        self.setup_sanitize_files()

    def get_sanitize_files(self) -> list[str]:
        return [str(SANITIZE_FILE), *super().get_sanitize_files()]

    def teardown(self) -> None:
        try:
            super().teardown()
        finally:
            if self.workdir:
                shutil.rmtree(self.workdir, ignore_errors=True)
