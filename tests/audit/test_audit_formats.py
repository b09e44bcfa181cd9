"""The report's formats: text for people, JSON and SARIF stable for CI and code-scanning tools; the exit status."""
from __future__ import annotations

import contextlib
import json
import os
from dataclasses import replace
from pathlib import Path

from celerylab.audit import format_json, format_sarif, format_text
from celerylab.audit.registry import all_rules

ROOT = Path(__file__).resolve().parents[2]


def test_text_shows_rule_subject_severity_why_fix_and_link(audit_app):
    text = format_text.render(audit_app("cl107"))
    assert "CL107 [critical · defect] accept_content: `accept_content` = ['json', 'application/x-python-serialize']" \
           " accepts pickle" in text
    assert "    why: loading a pickle runs code" in text
    assert "    fix: `accept_content = [\"json\"]`" in text
    assert "    lesson: http://127.0.0.1:8000/en/lessons/03_silent_defects/#why-not-pickle" in text
    assert text.splitlines()[-1] == "1 finding (1 critical); 0 undecided; 0 suppressed"


def test_text_of_a_clean_app(audit_app):
    text = format_text.render(audit_app("clean"))
    assert "No findings." in text and text.splitlines()[-1] == "0 findings; 0 undecided; 0 suppressed"
    assert "(1 registered task," in text.splitlines()[0]


def test_text_marks_undecided_and_says_it_is_not_a_pass(audit_app):
    text = format_text.render(audit_app("cl401_unknown"))
    assert "CL401 [undecided · defect] acks_late: `cl401u.open_ended` (acks_late) has no time limit" in text
    assert "An \"undecided\" is not a pass" in text


def test_json_shape_is_stable(audit_app):
    data = json.loads(format_json.render(audit_app("cl401_unknown")))
    assert list(data) == ["schema", "app", "tasks", "broker", "backend", "findings", "unknown", "suppressed",
                          "summary"]
    assert data["schema"] == "celerylab-audit/1"
    assert data["app"] == "audit_apps.cl401_unknown" and data["broker"] == "redis"
    [finding] = data["findings"]
    assert list(finding) == ["rule", "name", "severity", "category", "status", "subject", "message", "why", "fix",
                             "lesson", "url", "file", "line"]
    assert (finding["rule"], finding["name"], finding["severity"], finding["category"], finding["lesson"]) == \
        ("CL201", "no-time-limit", "medium", "practice", "l02_workers")
    [unknown] = data["unknown"]
    assert (unknown["rule"], unknown["status"]) == ("CL401", "unknown")
    assert data["summary"] == {"findings": 1, "unknown": 1, "suppressed": 0}


def test_json_findings_are_sorted_by_rule_then_subject(audit_app):
    data = json.loads(format_json.render(audit_app("cl113")))
    assert [f["subject"] for f in data["findings"]] == ["cl113.move(pair)", "cl113.move(point)", "cl113.move(tags)",
                                                      "cl113.tags(return)"]


def test_sarif_is_2_1_0_with_every_rule_and_locations(audit_app):
    sarif = json.loads(format_sarif.render(audit_app("cl502")))
    assert sarif["version"] == "2.1.0"
    [run] = sarif["runs"]
    rules = run["tool"]["driver"]["rules"]
    assert [rule["id"] for rule in rules] == [*all_rules(), "CL900"]
    [result] = run["results"]
    assert result["ruleId"] == "CL502" and rules[result["ruleIndex"]]["id"] == "CL502"
    assert result["partialFingerprints"] == {"celerylabAudit/v1": "CL502:audit_apps/cl502.py:14"}
    assert result["level"] == "error"
    location = result["locations"][0]["physicalLocation"]
    assert location == {"artifactLocation": {"uri": "tests/audit/audit_apps/cl502.py", "uriBaseId": "SRCROOT"},
                        "region": {"startLine": 14}}


def test_sarif_uris_are_relative_to_the_repository_root_named_in_the_run(audit_app):
    """Audited from tests/audit, a subfolder of the repository: code scanning maps the URI from the root."""
    run = json.loads(format_sarif.render(audit_app("cl502")))["runs"][0]
    root = run["originalUriBaseIds"]["SRCROOT"]["uri"]
    assert root == ROOT.resolve().as_uri() + "/"
    uri = run["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
    assert (ROOT / uri).is_file()


def test_a_file_outside_the_repository_gets_no_physical_location(audit_app):
    """A location in a library's file (contextlib.py, a site-packages helper) is no file code scanning can show."""
    report = audit_app("cl502")
    outside = os.path.relpath(contextlib.__file__, report.folder)
    report.findings = [replace(f, hit=replace(f.hit, file=outside)) for f in report.findings]
    [result] = json.loads(format_sarif.render(report))["runs"][0]["results"]
    assert result["locations"] == [{"logicalLocations": [{"name": "audit_apps/cl502.py:14", "kind": "member"}]}]


def test_outside_any_repository_the_root_is_the_audits_folder(tmp_path):
    assert format_sarif.repository_root(str(tmp_path)) == tmp_path.resolve()
    (tmp_path / ".git").mkdir()
    (tmp_path / "app").mkdir()
    assert format_sarif.repository_root(str(tmp_path / "app")) == tmp_path.resolve()


def test_sarif_levels_follow_severity(audit_app):
    run = json.loads(format_sarif.render(audit_app("cl603")))["runs"][0]
    [result] = run["results"]
    assert result["level"] == "note" and result["kind"] == "fail"
    uri = {"uri": "tests/audit/audit_apps/cl603.py", "uriBaseId": "SRCROOT"}
    assert result["locations"] == [{"physicalLocation": {"artifactLocation": uri, "region": {"startLine": 4}}}]


def test_every_finding_points_at_the_line_that_names_it(audit_app):
    """A setting at the line that writes it (the settings module, the namespaced key), a task at its decorator."""
    where = {f.subject: (f.hit.file, f.hit.line) for f in audit_app("cfg_namespace_app").findings}
    assert where == {"task_acks_lat": ("audit_apps/django_settings.py", 10)}
    where = {f.subject: (f.hit.file, f.hit.line) for f in audit_app("cl102").findings}
    assert where == {"task_max_retries": ("audit_apps/cl102.py", 5)}
    where = {f.subject: (f.hit.file, f.hit.line) for f in audit_app("cl401").findings}
    assert where == {"cl401.export": ("audit_apps/cl401.py", 7)}
    text = format_text.render(audit_app("cl104"))
    assert "    where: audit_apps/cl104.py:5" in text


def test_exit_status_by_severity(audit_app):
    assert audit_app("clean").exit_status() == 0
    assert audit_app("cl107").exit_status() == 1               # critical
    assert audit_app("cl603").exit_status() == 0               # low, under the default high
    assert audit_app("cl603").exit_status("low") == 1
    assert audit_app("cl401_unknown").exit_status("medium") == 1  # CL201 is medium; the undecided never counts
    assert audit_app("cl401_unknown").exit_status("high") == 0


def test_no_format_repeats_the_password_it_reports(audit_app):
    report = audit_app("cl112")
    [finding] = report.findings
    assert finding.message == "the password of `broker_url` is written in audit_apps/cl112.py:6"
    for render in (format_text.render, format_json.render, format_sarif.render):
        assert "Wq7-tr0ub4dor" not in render(report)
