"""CI runs the matrix: each older release line's claims, in its cached environment, observe what observed.json records."""
from __future__ import annotations

import subprocess
import sys

import pytest

from celerylab.matrix.releases import RELEASES

OLDER = [release.line for release in RELEASES if not release.is_installed()]

# Every lesson's claims on one release take 2-5 min at -n 2 alone, 8-10 min beside the rest of the suite, and more
# than 23 min beside it and two CPU burners; the environment is built once (~1 min per line) into the cache
# outside the checkout.
MATRIX_WITHIN = 3000
pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.timeout(MATRIX_WITHIN + 100)]


@pytest.mark.parametrize("line", OLDER)
def test_an_older_release_observes_what_observed_json_records(line):
    done = subprocess.run([sys.executable, "-m", "celerylab.cli", "--lang", "en", "matrix", "--check",
                           "--release", line, "--jobs", "2"], capture_output=True, text=True, timeout=MATRIX_WITHIN)
    report = "\n".join(text for text in done.stderr.splitlines() if not text.startswith(f"[{line}]"))
    assert done.returncode == 0, report[-6000:]
