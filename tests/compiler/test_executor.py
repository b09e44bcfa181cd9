"""The executor names the notebook and the cell that failed, and runs notebooks side by side."""
from __future__ import annotations

from pathlib import Path

import pytest
from nbformat.v4 import new_code_cell, new_notebook

from celerylab.compiler.executor import execute_all
from celerylab.compiler.model import Lesson, Target
from celerylab.i18n import set_lang

pytestmark = pytest.mark.live


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


SIGTERM_SCRIPT = """
import sys
from pathlib import Path
from nbformat.v4 import new_code_cell, new_notebook
from celerylab.compiler.executor import BuildInterrupted, execute_all
from celerylab.compiler.model import Lesson, Target

folder = Path(sys.argv[1])
def notebook(source):
    return new_notebook(cells=[new_code_cell(source, id="c0")], metadata={"celerylab": {"lang": "en"}})
lesson = Lesson("l98_long", Path("/nowhere"))
jobs = [(Target(lesson, "en", "lesson"), notebook(
            f"import os, time\\nopen({str(folder / 'kernel')!r}, 'w').write(str(os.getpid()))\\ntime.sleep(120)")),
        (Target(lesson, "en", "solutions"), notebook(f"open({str(folder / 'second')!r}, 'w').write('ran')"))]
try:
    execute_all(jobs, timeout=300, parallel=1)
except BuildInterrupted:
    sys.exit(130)
"""


def test_sigterm_stops_the_whole_build_and_its_kernels(tmp_path):
    """A `kill` (or Ctrl+C) ends the build: its kernel is shut down and the next notebook never runs."""
    import os
    import signal
    import subprocess
    import sys

    import psutil

    from celerylab.polling import until

    build = subprocess.Popen([sys.executable, "-c", SIGTERM_SCRIPT, str(tmp_path)])
    try:
        until(lambda: (tmp_path / "kernel").exists(), 120, step=0.2)
        kernel = int((tmp_path / "kernel").read_text())
        build.send_signal(signal.SIGTERM)
        assert build.wait(timeout=60) == 130
        assert not (tmp_path / "second").exists()  # the notebook still to run did not start
        assert until(lambda: not psutil.pid_exists(kernel) or psutil.Process(kernel).status() == psutil.STATUS_ZOMBIE,
                     20, step=0.2), "the kernel outlived the build"
    finally:
        if build.poll() is None:
            build.kill()
        if (tmp_path / "kernel").exists() and psutil.pid_exists(int((tmp_path / "kernel").read_text())):
            os.kill(int((tmp_path / "kernel").read_text()), signal.SIGKILL)
