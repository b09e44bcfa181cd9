"""nbval on generated notebooks: noise sanitized, `;` honoured, real differences still fail, only our folders."""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest
from nbval.plugin import get_sanitize_patterns

from celerylab.testing.nbval_plugin import SANITIZE_FILE

pytestmark = pytest.mark.live


def sanitize(text: str) -> str:
    for regex, replace in get_sanitize_patterns(SANITIZE_FILE.read_text(encoding="ascii")):
        text = re.sub(regex, replace, text)
    return text


def test_sanitize_file_is_ascii_and_tames_noise():
    SANITIZE_FILE.read_bytes().decode("ascii")
    noisy = ("task 3f2b1c9e-8d7a-4b6c-9e5f-0a1b2c3d4e5f on w0-1a2b3c4d@ci-runner.local pid=4242 "
             "at 2025-01-02T03:04:05.678+00:00 took 0.53 s; redis://127.0.0.1:40123/0 "
             "/tmp/celerylab-1a2b3c4d-xyz/w0.log celerylab:1a2b3c4d: 12:30:01,123 <obj at 0x7f3a2b>")
    assert sanitize(noisy) == ("task UUID on WORKER@HOST pid=PID at DATETIME took DURATION; "
                               "redis://HOST:PORT/DB TMPPATH celerylab:STACK: TIME <obj at 0xADDR>")
    assert sanitize("deliveries: 2, retries after 4 s, ana@example.com") == \
        "deliveries: 2, retries after 4 s, ana@example.com"


def test_a_portuguese_duration_with_a_decimal_comma_is_noise_too():
    assert sanitize("do início ao fim: 5,8 s; saiu após 4,9 s") == "do início ao fim: DURATION; saiu após DURATION"
    assert sanitize("execuções: 2; [4,0; 4,2]; (3, 180)") == "execuções: 2; [4,0; 4,2]; (3, 180)"


def test_a_random_invoice_number_and_a_measured_page_time_are_noise():
    assert sanitize("(b) valor da cobrança da fatura INV-ce5b26 do pedido 7") == \
        "(b) valor da cobrança da fatura INV-INVOICE do pedido 7"
    assert sanitize("dura pelo menos um step: esperado 0.1 s, observado 0.127 s") == \
        "dura pelo menos um step: esperado DURATION, observado DURATION"
    assert sanitize("lasts at least one step: expected 0.3 s, observed 0.310 s") == \
        "lasts at least one step: expected DURATION, observed DURATION"
    assert sanitize("fatura INV-7 e CN-7: esperado 99.90, observado 99.90") == \
        "fatura INV-7 e CN-7: esperado 99.90, observado 99.90"


def test_work_left_by_a_kill_is_noise_where_only_more_than_zero_is_asked():
    assert sanitize("ninguém foi morto; 0: a queda não encontrou trabalho por fazer): esperado > 0, observado 4.5") \
        == "ninguém foi morto; 0: a queda não encontrou trabalho por fazer): esperado > 0, observado N"
    assert sanitize("expected > 0, observed 5.0") == "expected > 0, observed N"
    assert sanitize("expected >= 0, observed 5.0; expected 0, observed 4") == "expected >= 0, observed 5.0; expected 0, observed 4"


def test_a_fresh_event_id_and_seconds_read_to_the_hundredth_are_noise():
    assert sanitize("para o evento 'user-5:welcome-after-signup:03fba3209e1f4a0fa02cec7fb3c6de7f:1'") == \
        "para o evento 'user-5:welcome-after-signup:HEX32:1'"
    assert sanitize("segundos até a retentativa 1 de ex.notify_partner: esperado 10, observado 9.95") == \
        "segundos até a retentativa 1 de ex.notify_partner: esperado 10, observado SECONDS"
    assert sanitize("seconds from sending ex.ping_partner to its FAILURE: expected ≤ 1.5, observed 0.2") == \
        "seconds from sending ex.ping_partner to its FAILURE: expected ≤ 1.5, observed SECONDS"
    assert sanitize("retentativas de ex.welcome: esperado 3, observado 2; id 03fba3209e1f") == \
        "retentativas de ex.welcome: esperado 3, observado 2; id 03fba3209e1f"


@pytest.mark.live
@pytest.mark.slow
def test_nbval_validates_generated_notebooks_only(built_course, tmp_path):
    built, _ = built_course
    root = tmp_path / "course"
    shutil.copytree(built, root)
    (root / "pytest.ini").write_text(
        "[pytest]\naddopts = -p no:cacheprovider -p celerylab.testing.nbval_plugin --nbval-cell-timeout=120\n"
        "celerylab_nbval_paths = notebooks solutions\n", encoding="utf-8")
    (root / "tests").mkdir()
    shutil.copy(root / "exercises" / "pt" / "99_fixture_exercicios.ipynb", root / "tests" / "not_validated.ipynb")
    tampered = root / "notebooks" / "en" / "99_fixture.ipynb"
    data = json.loads(tampered.read_text(encoding="utf-8"))
    add = next(cell for cell in data["cells"] if cell["id"] == "add")
    add["outputs"][0]["text"] = [line.replace("sum: 5", "sum: 6") for line in add["outputs"][0]["text"]]
    tampered.write_text(json.dumps(data), encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "2", "--dist", "loadscope", "-rf"],
                         cwd=root, capture_output=True, text=True, timeout=280)
    summary = run.stdout.strip().splitlines()[-1]
    # every code cell of the four notebooks (lesson and solutions, pt and en) but the tampered one
    assert re.search(r"\b1 failed, 17 passed\b", summary), run.stdout[-3000:]
    assert "FAILED notebooks/en/99_fixture.ipynb::Cell 1" in run.stdout
    assert not list(root.rglob("ex_double.py"))
