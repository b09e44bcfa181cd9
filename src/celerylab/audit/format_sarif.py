"""The report as SARIF 2.1.0, for code-scanning tools: one reporting rule per audit rule, one result per finding."""
from __future__ import annotations

import json

from celerylab.audit.registry import UNUSED_SUPPRESSION, all_rules
from celerylab.audit.run_rules import Report, text

LEVELS = {"critical": "error", "high": "error", "medium": "warning", "low": "note"}
SECURITY = {"critical": "9.0", "high": "7.0", "medium": "5.0", "low": "3.0"}


def descriptor(rule) -> dict:
    return {"id": rule.id, "name": rule.slug,
            "shortDescription": {"text": text(rule, "title", {})},
            "fullDescription": {"text": text(rule, "why", {})},
            "help": {"text": text(rule, "fix", {})},
            "defaultConfiguration": {"level": LEVELS[rule.severity]},
            "properties": {"severity": rule.severity, "category": rule.category, "lesson": rule.lesson,
                           "security-severity": SECURITY[rule.severity]}}


def result(finding, rule_index: dict, kind: str = "fail") -> dict:
    rule = finding.rule
    entry = {"ruleId": rule.id, "ruleIndex": rule_index[rule.id], "kind": kind,
             "level": LEVELS[rule.severity] if kind == "fail" else "none",
             "message": {"text": f"{finding.subject}: {finding.message} — {finding.why}"},
             "properties": {"subject": finding.subject, "fix": finding.fix, "url": finding.url},
             # the same finding keeps its identity when lines move: code-scanning tools match alerts by it
             "partialFingerprints": {"celerylabAudit/v1": f"{rule.id}:{finding.subject}"}}
    if finding.hit.file:
        region = {"startLine": finding.hit.line} if finding.hit.line else {}
        entry["locations"] = [{"physicalLocation": {"artifactLocation": {"uri": finding.hit.file},
                                                    **({"region": region} if region else {})}}]
    else:
        entry["locations"] = [{"logicalLocations": [{"name": finding.subject, "kind": "member"}]}]
    return entry


def render(report: Report) -> str:
    rules = [*all_rules().values(), UNUSED_SUPPRESSION]
    index = {rule.id: position for position, rule in enumerate(rules)}
    results = [result(f, index) for f in sorted(report.findings, key=lambda f: (f.rule.id, f.subject))]
    results += [result(f, index, "review") for f in report.unknown]
    for finding in report.suppressed:
        entry = result(finding, index)
        entry["suppressions"] = [{"kind": "external"}]
        results.append(entry)
    return document(report.app, rules, results)


def document(app: str, rules, results, invocation: dict | None = None) -> str:
    run = {"tool": {"driver": {"name": "celerylab audit", "informationUri": "https://docs.celeryq.dev/",
                               "rules": [descriptor(rule) for rule in rules]}},
           "automationDetails": {"id": f"celerylab-audit/{app}"}, "results": results}
    if invocation:
        run["invocations"] = [invocation]
    sarif = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
    return json.dumps(sarif, indent=2, ensure_ascii=False)


def failed(app: str, message: str) -> str:
    """An app that did not load (exit 2): a valid log with no result and the reason as the run's notification."""
    return document(app, [], [], {"executionSuccessful": False, "toolExecutionNotifications": [
        {"level": "error", "message": {"text": message}}]})
