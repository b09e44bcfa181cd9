"""Execute notebooks with nbclient, several at once, each kernel in a fresh temp folder and its language."""
from __future__ import annotations

import asyncio
import copy
import os
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass

from nbclient import NotebookClient
from nbclient.exceptions import CellExecutionError
from nbformat import NotebookNode

from celerylab.compiler.model import Target
from celerylab.compiler.progress_bar import ProgressBar
from celerylab.i18n import TranslatedError, t

KERNEL = "python3"


class BuildInterrupted(TranslatedError):
    """SIGINT or SIGTERM during a build: every kernel was shut down and nothing was written."""

    def __init__(self):
        super().__init__("build.interrupted")


class Interruption:
    """Stops the whole build on SIGINT/SIGTERM, not just the current notebook.

    nbclient installs handlers of its own for each notebook, which only shut that notebook's kernel down,
    so the build went on with the next one and a Ctrl+C or a `kill` did not stop it. These handlers are
    put back at every cell start (after nbclient's) and cancel every notebook: each kernel is shut down on
    the way out (nbclient's own clean-up), and the build ends with BuildInterrupted.
    """

    def __init__(self):
        self.tasks: list[asyncio.Task] = []
        self.fired = False

    def install(self) -> None:
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGINT, signal.SIGTERM):
            try:
                loop.add_signal_handler(sig, self.fire)
            except (RuntimeError, NotImplementedError):  # not the main thread, or no signals (Windows)
                return

    def fire(self) -> None:
        self.fired = True
        for task in self.tasks:
            task.cancel()


@dataclass
class Outcome:
    """A finished run: the executed notebook, or the error naming the notebook and cell."""

    target: Target
    notebook: NotebookNode | None
    seconds: float
    error: str | None = None


def kernel_env(lang: str, workdir: str) -> dict[str, str]:
    """The kernel's environment: ours, with the notebook's language for every message it prints.

    Learner progress goes to a throwaway home inside `workdir`: checks run by a build or by
    nbval must not mark anyone's exercises as passed (that would unlock their solutions).
    Checks run their hidden criteria too: the lesson notebook is the proof that each solution passes.
    """
    home = os.path.join(workdir, ".celerylab-home")
    return dict(os.environ, CELERYLAB_LANG=lang, CELERYLAB_HOME=home, PYTHONUNBUFFERED="1",
                CELERYLAB_CHECK_HIDDEN="1")


def finalize(notebook: NotebookNode) -> NotebookNode:
    """Machine-independent metadata after a run (no Python patch version), marked as executed."""
    notebook.metadata["language_info"] = {"name": "python"}
    notebook.metadata["celerylab"]["executed"] = True
    return notebook


async def execute_one(target: Target, notebook: NotebookNode, progress: ProgressBar, timeout: float,
                      gate: asyncio.Semaphore, interruption: Interruption | None = None) -> Outcome:
    async with gate:
        label, notebook = target.label(), copy.deepcopy(notebook)
        current: dict[str, str | None] = {"id": None}

        def on_start(cell, **_):
            if interruption is not None:
                interruption.install()
            if cell.cell_type == "code" and cell.source.strip():
                current["id"] = cell.get("id")

        progress.start(label, sum(c.cell_type == "code" and bool(c.source.strip()) for c in notebook.cells))
        started = time.perf_counter()
        error = None
        with tempfile.TemporaryDirectory(prefix="celerylab-build-") as workdir:
            client = NotebookClient(notebook, timeout=timeout, kernel_name=KERNEL, record_timing=False,
                                    resources={"metadata": {"path": workdir}}, on_cell_start=on_start,
                                    on_cell_executed=lambda cell, **_: progress.advance(label, cell.get("id")))
            try:
                await client.async_execute(env=kernel_env(target.lang, workdir), stderr=subprocess.DEVNULL)
            except CellExecutionError as failure:
                error = f"{failure.ename}: {failure.evalue}"
            except Exception as failure:  # dead kernel, cell timeout, kernel that never started
                error = f"{type(failure).__name__}: {failure}"
        seconds = time.perf_counter() - started
        progress.finish(label, seconds, ok=error is None)
        if error:
            message = t("build.exec.cell_failed", notebook=label, cell=current["id"] or "-", error=error.strip())
            return Outcome(target, None, seconds, message)
        return Outcome(target, finalize(notebook), seconds)


async def _execute_all(jobs, progress, timeout, parallel):
    gate, interruption = asyncio.Semaphore(max(1, parallel)), Interruption()
    interruption.install()
    interruption.tasks = [asyncio.ensure_future(execute_one(target, nb, progress, timeout, gate, interruption))
                          for target, nb in jobs]
    try:
        return await asyncio.gather(*interruption.tasks)
    except asyncio.CancelledError:
        if interruption.fired:
            await asyncio.gather(*interruption.tasks, return_exceptions=True)  # every kernel's clean-up, to its end
            raise BuildInterrupted() from None
        raise


def execute_all(jobs: list[tuple[Target, NotebookNode]], progress: ProgressBar | None = None,
                timeout: float = 300, parallel: int = 4) -> list[Outcome]:
    """Run every (target, notebook) job, `parallel` at a time; one Outcome per job, in order."""
    progress = progress or ProgressBar(quiet=True)
    try:
        return asyncio.run(_execute_all(jobs, progress, timeout, parallel))
    finally:
        progress.close()
