"""The report as SARIF 2.1.0, for code-scanning tools: one reporting rule per audit rule, one result per finding."""
from __future__ import annotations

import json
import os
from pathlib import Path

from celerylab.audit.registry import UNUSED_SUPPRESSION, all_rules
from celerylab.audit.run_rules import Report, text

LEVELS = {"critical": "error", "high": "error", "medium": "warning", "low": "note"}
SECURITY = {"critical": "9.0", "high": "7.0", "medium": "5.0", "low": "3.0"}
# Code scanning resolves URIs against the repository's root: findings name files relative to it, under this base.
ROOT_BASE = "SRCROOT"


def repository_root(folder: str) -> Path:
    """The git repository holding `folder` (an audit run from a subfolder too); `folder` itself outside any."""
    start = Path(folder or os.getcwd()).resolve()
    return next((path for path in (start, *start.parents) if (path / ".git").exists()), start)


def artifact(file: str, folder: str, root: Path) -> dict | None:
    """The finding's file as a URI relative to `root`; None for a file outside the repository (a library's)."""
    path = Path(folder or os.getcwd(), file).resolve()
    if not path.is_relative_to(root):
        return None
    return {"uri": path.relative_to(root).as_posix(), "uriBaseId": ROOT_BASE}


def descriptor(rule) -> dict:
    return {"id": rule.id, "name": rule.slug,
            "shortDescription": {"text": text(rule, "title", {})},
            "fullDescription": {"text": text(rule, "why", {})},
            "help": {"text": text(rule, "fix", {})},
            "defaultConfiguration": {"level": LEVELS[rule.severity]},
            "properties": {"severity": rule.severity, "category": rule.category, "lesson": rule.lesson,
                           "security-severity": SECURITY[rule.severity]}}


def result(finding, rule_index: dict, kind: str = "fail", folder: str = "", root: Path | None = None) -> dict:
    rule = finding.rule
    entry = {"ruleId": rule.id, "ruleIndex": rule_index[rule.id], "kind": kind,
             "level": LEVELS[rule.severity] if kind == "fail" else "none",
             "message": {"text": f"{finding.subject}: {finding.message} — {finding.why}"},
             "properties": {"subject": finding.subject, "fix": finding.fix, "url": finding.url},
             # the same finding keeps its identity when lines move: code-scanning tools match alerts by it
             "partialFingerprints": {"celerylabAudit/v1": f"{rule.id}:{finding.subject}"}}
    location = artifact(finding.hit.file, folder, root or repository_root(folder)) if finding.hit.file else None
    if location:
        region = {"startLine": finding.hit.line} if finding.hit.line else {}
        entry["locations"] = [{"physicalLocation": {"artifactLocation": location,
                                                    **({"region": region} if region else {})}}]
    else:
        entry["locations"] = [{"logicalLocations": [{"name": finding.subject, "kind": "member"}]}]
    return entry


def render(report: Report) -> str:
    rules = [*all_rules().values(), UNUSED_SUPPRESSION]
    index = {rule.id: position for position, rule in enumerate(rules)}
    root = repository_root(report.folder)
    results = [result(f, index, "fail", report.folder, root)
               for f in sorted(report.findings, key=lambda f: (f.rule.id, f.subject))]
    results += [result(f, index, "review", report.folder, root) for f in report.unknown]
    for finding in report.suppressed:
        entry = result(finding, index, "fail", report.folder, root)
        entry["suppressions"] = [{"kind": "external"}]
        results.append(entry)
    return document(report.app, rules, results, root=root)


def document(app: str, rules, results, invocation: dict | None = None, root: Path | None = None) -> str:
    run = {"tool": {"driver": {"name": "celerylab audit", "informationUri": "https://docs.celeryq.dev/",
                               "rules": [descriptor(rule) for rule in rules]}},
           "automationDetails": {"id": f"celerylab-audit/{app}"}, "results": results}
    if root is not None:
        run["originalUriBaseIds"] = {ROOT_BASE: {"uri": root.as_uri() + "/"}}
    if invocation:
        run["invocations"] = [invocation]
    sarif = {"$schema": "https://json.schemastore.org/sarif-2.1.0.json", "version": "2.1.0", "runs": [run]}
    return json.dumps(sarif, indent=2, ensure_ascii=False)


def failed(app: str, message: str) -> str:
    """An app that did not load (exit 2): a valid log with no result and the reason as the run's notification."""
    return document(app, [], [], {"executionSuccessful": False, "toolExecutionNotifications": [
        {"level": "error", "message": {"text": message}}]})
