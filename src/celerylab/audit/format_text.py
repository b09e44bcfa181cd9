"""The report for a terminal: one block per finding (rule, subject, severity, message, why, fix, lesson link)."""
from __future__ import annotations

from collections import Counter

from celerylab.audit.audit_messages import has
from celerylab.audit.model import SEVERITIES
from celerylab.audit.run_rules import Report
from celerylab.i18n import t


def block(finding, undecided: bool = False) -> list[str]:
    rule = finding.rule
    tag = t("audit.report.unknown") if undecided else t(f"audit.severity.{rule.severity}")
    lines = [f"{rule.id} [{tag} · {t(f'audit.category.{rule.category}')}] {finding.subject}: {finding.message}"]
    if finding.hit.file:
        lines.append(f"    {t('audit.report.where')}: {finding.hit.file}" + (f":{finding.hit.line}" if finding.hit.line else ""))
    lines.append(f"    {t('audit.report.why')}: {finding.why}")
    lines.append(f"    {t('audit.report.fix')}: {finding.fix}")
    if finding.url:
        lines.append(f"    {t('audit.report.lesson')}: {finding.url}")
    return lines


def counted(key: str, count: int, **values) -> str:
    """`key`.none/.one/.other by `count` (Portuguese and English agree on one and many)."""
    if count == 0 and has(f"{key}.none"):
        return t(f"{key}.none", count=count, **values)
    return t(f"{key}.{'one' if count == 1 else 'other'}", count=count, **values)


def summary(report: Report) -> str:
    """`2 findings (1 critical, 1 low); 0 undecided; 0 suppressed`: no breakdown when nothing was found."""
    counts = Counter(f.rule.severity for f in report.findings)
    by_severity = ", ".join(f"{counts[s]} {t(f'audit.severity.{s}')}" for s in SEVERITIES if counts[s])
    return t("audit.report.summary", findings=counted("audit.report.findings", len(report.findings),
                                                        by_severity=by_severity),
              unknown=counted("audit.report.undecided", len(report.unknown) + len(report.errors)),
              suppressed=counted("audit.report.suppressed", len(report.suppressed)))


def render(report: Report) -> str:
    none = t("audit.report.none")
    lines = [t("audit.report.title", app=report.app, tasks=counted("audit.report.tasks", report.facts["tasks"]),
                broker=report.facts["broker"].replace("-", none), backend=report.facts["backend"].replace("-", none)),
             ""]
    order = sorted(report.findings, key=lambda f: (SEVERITIES.index(f.rule.severity), f.rule.id, f.subject))
    for finding in order:
        lines += block(finding)
    for finding in report.unknown:
        lines += block(finding, undecided=True)
    for rule_id, error in report.errors:
        lines.append(f"{rule_id} [{t('audit.report.unknown')}] {error}")
    if not (order or report.unknown or report.errors):
        lines.append(t("audit.report.clean"))
    lines += ["", summary(report)]
    if report.unknown or report.errors:
        lines.append(t("audit.report.unknown_note"))
    return "\n".join(lines)
