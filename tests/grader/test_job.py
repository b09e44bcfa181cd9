"""The job process's own end: its output flushed, nothing left to the interpreter's shutdown."""
from __future__ import annotations

import subprocess
import sys

ENDS = ("import atexit\nfrom celerylab.grader.job import finish\n"
        "atexit.register(print, 'the shutdown ran')\nprint('record', end='')\nfinish(3)\n")


def test_the_job_ends_with_its_output_flushed_and_without_the_interpreters_shutdown():
    done = subprocess.run([sys.executable, "-c", ENDS], capture_output=True, text=True, timeout=120)
    assert done.returncode == 3
    assert done.stdout == "record"  # written to a pipe (buffered), flushed before the end
    assert "the shutdown ran" not in done.stdout + done.stderr  # atexit handlers and module teardown skipped


REFUSED = ("import sys\nfrom celerylab.grader import unused_imports\nrefused = unused_imports.refuse()\n"
           "import nbformat\nfrom nbformat.validator import ValidationError\n"
           "notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell('1 + 1')])\n"
           "nbformat.validate(nbformat.reads(nbformat.writes(notebook), as_version=4))\n"
           "notebook.cells[0]['cell_type'] = 'nonsense'\n"
           "try:\n    nbformat.validate(notebook)\nexcept ValidationError:\n    print('invalid refused')\n"
           "print(sorted(name for name in unused_imports.FORMAT_CHECKERS if sys.modules.get(name) is not None))\n"
           "print(len(refused))\n")


def test_the_format_checkers_grading_never_uses_are_not_imported_and_notebooks_still_validate():
    from celerylab.grader import unused_imports

    done = subprocess.run([sys.executable, "-c", REFUSED], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == ["invalid refused", "[]", str(len(unused_imports.FORMAT_CHECKERS))]

