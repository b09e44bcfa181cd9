"""Helpers for the audit's tests: audit one app of tests/audit/audit_apps, compare findings as (rule, subject)."""
from __future__ import annotations

from pathlib import Path

from celerylab.audit.api import audit

HERE = Path(__file__).parent


def audited(module: str, **options):
    """The report for the app of tests/audit/audit_apps/<module>.py (or of a dotted module under tests/audit)."""
    return audit(module if "." in module else f"audit_apps.{module}", path=str(HERE), **options)


def pairs(findings) -> set[tuple[str, str]]:
    return {(finding.rule.id, finding.subject) for finding in findings}
