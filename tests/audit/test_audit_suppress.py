"""Suppressions silence what they name, are counted, must silence something, and never hide an undecided finding."""
from __future__ import annotations

import dataclasses

from audit_helpers import pairs

from celerylab.audit import format_text, registry


def test_a_rule_is_silenced_and_counted(audit_app):
    report = audit_app("cl305", ignore=["CL305"])
    assert report.findings == [] and len(report.suppressed) == 2


def test_a_rule_on_one_subject(audit_app):
    report = audit_app("cl305", ignore=["cl305:cl305.no_jitter"])
    assert pairs(report.findings) == {("CL305", "cl305.no_delay_set")}
    assert pairs(report.suppressed) == {("CL305", "cl305.no_jitter")}


def test_a_suppression_that_silences_nothing_is_a_finding(audit_app):
    report = audit_app("clean", ignore=["CL101:task_acks_lat", "CL999"])
    assert pairs(report.findings) == {("CL900", "CL101:task_acks_lat"), ("CL900", "CL999")}
    messages = {f.subject: f.message for f in report.findings}
    assert messages["CL999"] == "`--ignore CL999` silenced no finding (there is no rule CL999)"
    assert messages["CL101:task_acks_lat"] == "`--ignore CL101:task_acks_lat` silenced no finding"


def test_an_undecided_finding_cannot_be_suppressed(audit_app):
    report = audit_app("cl401_unknown", ignore=["CL401"])
    assert pairs(report.unknown) == {("CL401", "acks_late")}
    assert ("CL900", "CL401") in pairs(report.findings)


def test_practice_rules_can_be_left_out(audit_app):
    report = audit_app("cl401_unknown", practice=False)
    assert report.findings == [] and pairs(report.unknown) == {("CL401", "acks_late")}


def test_a_rule_that_cannot_read_the_app_is_undecided_not_clean(audit_app, monkeypatch):
    def broken(view):
        raise TypeError("an app this rule cannot read")

    rule = registry.all_rules()["CL201"]
    monkeypatch.setitem(registry.RULES, "CL201", dataclasses.replace(rule, check=broken))
    report = audit_app("cl201")
    assert report.findings == [] and report.errors == [("CL201", "TypeError: an app this rule cannot read")]
    assert "CL201 [undecided] TypeError: an app this rule cannot read" in format_text.render(report)
    assert report.exit_status("low") == 0   # undecided never fails a build, and never reads as clean either


def test_a_comment_silences_that_task_or_setting_only(audit_app):
    report = audit_app("comments")
    assert pairs(report.suppressed) == {("CL305", "comments.fixed_rhythm"), ("CL101", "task_acks_lat")}
    assert ("CL305", "comments.noisy") in pairs(report.findings)


def test_a_comment_that_silences_nothing_is_a_finding(audit_app):
    report = audit_app("comments")
    unused = {f.subject: f.message for f in report.findings if f.rule.id == "CL900"}
    assert unused == {
        "audit_apps/comments.py:18:CL301": "`# celerylab-audit: ignore[CL301]` at audit_apps/comments.py:18 silenced "
                                           "no finding",
        "audit_apps/comments.py:18:CL999": "`# celerylab-audit: ignore[CL999]` at audit_apps/comments.py:18 silenced "
                                           "no finding (there is no rule CL999)",
    }
