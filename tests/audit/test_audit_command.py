"""`celerylab audit` on the command line: the formats, --explain, exit statuses 0, 1 and 2, the --help line."""
from __future__ import annotations

import json

import pytest
from audit_helpers import HERE

from celerylab import cli
from celerylab.audit.registry import all_rules
from celerylab.i18n import set_lang


@pytest.fixture(autouse=True)
def restore_lang():
    yield
    set_lang("pt")


def run(capsys, *argv):
    status = cli.main(["audit", *argv, "--path", str(HERE), "--lang", "en"])
    out, err = capsys.readouterr()
    return status, out, err


def test_clean_app_exits_0(capsys):
    status, out, _ = run(capsys, "-A", "audit_apps.clean")
    assert status == 0 and "No findings." in out, out


def test_error_level_findings_exit_1(capsys):
    status, out, _ = run(capsys, "-A", "audit_l03.incident", "--format", "json")
    assert status == 1
    assert {f["rule"] for f in json.loads(out)["findings"]} == {"CL102", "CL104", "CL113", "CL114"}


def test_fail_on_moves_the_threshold(capsys):
    assert run(capsys, "-A", "audit_apps.cl603")[0] == 0
    assert run(capsys, "-A", "audit_apps.cl603", "--fail-on", "low")[0] == 1


def test_sarif_on_stdout(capsys):
    status, out, _ = run(capsys, "-A", "audit_apps.cl107", "--format", "sarif")
    assert status == 1 and json.loads(out)["version"] == "2.1.0"


@pytest.mark.parametrize("spec, says", [
    ("audit_apps.no_such_module", "there is no module audit_apps.no_such_module"),
    ("audit_apps.not_an_app:app", "is not a Celery app"),
    ("audit_apps.bad_raises", "KeyError: 'AUDIT_SURELY_UNSET_DATABASE_URL'"),
])
def test_an_app_that_cannot_be_loaded_exits_2(capsys, spec, says):
    status, out, err = run(capsys, "-A", spec)
    assert status == 2 and out == "" and says in err


def test_no_app_exits_2(capsys):
    status, _, err = run(capsys)
    assert status == 2 and "say which app to audit" in err


def test_explain_needs_no_app(capsys):
    status, out, _ = run(capsys, "--explain", "cl401")
    assert status == 0
    assert out.splitlines()[0] == ("CL401 · high · defect · acks_late on Redis with a visibility timeout shorter "
                                   "than the time limit")
    assert "In the lesson: http://127.0.0.1:8000/en/lessons/02_workers/#6-the-duplicate-users-report-most-longer-than" \
           "-the-visibility-timeout" in out


def test_explain_an_unknown_rule(capsys):
    status, _, err = run(capsys, "--explain", "CL000")
    assert status == 2 and "unknown rule: CL000" in err and "CL101" in err


def test_portuguese_by_default(capsys):
    status = cli.main(["audit", "-A", "audit_apps.cl107", "--path", str(HERE)])
    out = capsys.readouterr().out
    assert status == 1 and "CL107 [crítica · defeito]" in out and "    por quê: carregar um pickle executa código" in out
    assert "    lição: http://127.0.0.1:8000/lessons/03_silent_defects/#por-que-nao-pickle" in out
    assert out.splitlines()[-1] == "1 achado (1 crítica); 0 não decididos; 0 suprimidos"


def test_the_help_lists_audit(capsys):
    set_lang("en")
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    assert "finds in your Celery app the silent defects the course shows" in capsys.readouterr().out


def test_rules_lists_every_rule_with_its_lesson(capsys):
    status, out, _ = run(capsys, "--rules")
    lines = out.splitlines()
    assert status == 0 and len(lines) == len(all_rules()) + 1   # and CL900
    assert lines[0].split()[:4] == ["CL101", "high", "defect", "l03_silent_defects"]
    assert lines[-1].startswith("CL900  low")
