"""The report as JSON for CI: a stable shape (schema version, app facts, findings sorted by rule and subject)."""
from __future__ import annotations

import json

from celerylab.audit.run_rules import Report

SCHEMA = "celerylab-audit/1"


def item(finding, status: str) -> dict:
    rule = finding.rule
    return {"rule": rule.id, "name": rule.slug, "severity": rule.severity, "category": rule.category,
            "status": status, "subject": finding.subject, "message": finding.message, "why": finding.why,
            "fix": finding.fix, "lesson": rule.lesson, "url": finding.url,
            "file": finding.hit.file, "line": finding.hit.line}


def data(report: Report) -> dict:
    def ordered(findings, status):
        return [item(f, status) for f in sorted(findings, key=lambda f: (f.rule.id, f.subject))]

    return {"schema": SCHEMA, "app": report.app, **report.facts,
            "findings": ordered(report.findings, "finding"),
            "unknown": ordered(report.unknown, "unknown") + [{"rule": rule_id, "status": "error", "message": error}
                                                             for rule_id, error in report.errors],
            "suppressed": ordered(report.suppressed, "suppressed"),
            "summary": {"findings": len(report.findings), "unknown": len(report.unknown) + len(report.errors),
                        "suppressed": len(report.suppressed)}}


def render(report: Report) -> str:
    return json.dumps(data(report), indent=2, ensure_ascii=False, sort_keys=False)


def failed(app: str, message: str) -> str:
    """The document for an app that did not load (exit 2): CI still reads JSON, with the reason."""
    return json.dumps({"schema": SCHEMA, "app": app, "error": message, "findings": [], "unknown": [], "suppressed": [],
                       "summary": {"findings": 0, "unknown": 0, "suppressed": 0}}, indent=2, ensure_ascii=False)
