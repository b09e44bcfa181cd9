"""A check cell's import stays light: a grading kernel runs it under the cell's time limit and needs no nbformat."""
from __future__ import annotations

import subprocess
import sys


def test_importing_check_does_not_load_nbformat():
    """nbformat loads jsonschema, whose IRI grammar (rfc3987_syntax) costs about 2 s of CPU per kernel: under
    load the first check cell of every graded notebook went over a 20 s cell limit."""
    probe = "import sys\nfrom celerylab.checks import check, hint\nprint(sorted(m for m in ('nbformat', 'jsonschema') if m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
