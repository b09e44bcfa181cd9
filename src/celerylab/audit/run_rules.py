"""Run every rule on a loaded app: findings in the language in force, suppressions applied, a report out."""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from string import Formatter

from celerylab.audit.appview import AppView
from celerylab.audit.audit_messages import catalog, has
from celerylab.audit.comments import comments
from celerylab.audit.comments import silenced as comment_silenced
from celerylab.audit.locate import locate
from celerylab.audit.model import SEVERITIES, Finding, Hit, Rule
from celerylab.audit.registry import UNUSED_SUPPRESSION, all_rules, get
from celerylab.audit.site import lesson_link
from celerylab.audit.suppress import Suppressions
from celerylab.audit.usages import module_files
from celerylab.i18n import get_lang, t


class Lenient(Formatter):
    """str.format that leaves a placeholder it has no value for as it is written (for --explain)."""

    def get_value(self, key, args, kwargs):
        return kwargs.get(key, "{" + str(key) + "}")


def text(rule: Rule, part: str, values: dict) -> str:
    """The rule's message `part` in the language in force, filled with `values` ("" when the rule has none)."""
    key = rule.key(part)
    if not has(key):
        return ""
    return Lenient().vformat(catalog()[key][get_lang()], (), values)


def finding(rule: Rule, hit: Hit, view: AppView | None = None) -> Finding:
    if view is not None and not hit.file:
        file, line = locate(view, hit)
        hit = replace(hit, file=file, line=line)
    values = {key: value for key, value in hit.values.items()}
    why, fix = (part if hit.message == "message" or not has(rule.key(f"{part}_{hit.message}"))
                else f"{part}_{hit.message}" for part in ("why", "fix"))
    return Finding(rule, hit, text(rule, hit.message, values), text(rule, why, values), text(rule, fix, values),
                   lesson_link(rule.id, get_lang()))


@dataclass
class Report:
    app: str
    facts: dict
    findings: list[Finding] = field(default_factory=list)   # decided, not suppressed
    unknown: list[Finding] = field(default_factory=list)    # undecided: never clean, never suppressed
    suppressed: list[Finding] = field(default_factory=list)
    errors: list[tuple[str, str]] = field(default_factory=list)  # (rule id, the error a check raised)
    folder: str = ""   # the audit's folder: findings' files are relative to it

    def exit_status(self, fail_on: str = "defect", strict: bool = False) -> int:
        """1 when a finding fails the run: by default any defect, whatever its severity (practice findings alone
        pass); with a severity, any finding at or above it. Undecided findings and rule errors fail only `strict`."""
        if strict and (self.unknown or self.errors):
            return 1
        if fail_on == "defect":
            return 1 if any(f.rule.category == "defect" for f in self.findings) else 0
        threshold = SEVERITIES.index(fail_on)
        return 1 if any(SEVERITIES.index(f.rule.severity) <= threshold for f in self.findings) else 0


def facts(view: AppView) -> dict:
    return {"tasks": len(view.tasks), "broker": view.broker_scheme or "-", "backend": view.backend_scheme or "-"}


def run(view: AppView, ignore=(), practice: bool = True) -> Report:
    suppressions = Suppressions.parse(ignore)
    written = comments(module_files(view.user_modules), view.loaded.folder)
    report = Report(view.loaded.spec, facts(view), folder=view.loaded.folder)
    for rule in all_rules().values():
        if rule.category == "practice" and not practice:
            continue
        try:
            hits = list(rule.check(view))
        except Exception as error:  # a rule that cannot read this app says so: undecided, never clean
            report.errors.append((rule.id, f"{type(error).__name__}: {error}"))
            continue
        for hit in hits:
            made = finding(rule, hit, view)
            if hit.unknown:
                report.unknown.append(made)
            elif suppressions.silenced(rule.id, hit) or comment_silenced(view, written, rule.id, hit) \
                    or comment_silenced(view, written, rule.id, made.hit):
                report.suppressed.append(made)
            else:
                report.findings.append(made)
    for unused in suppressions.unused():
        detail = "" if get(unused.rule) else t("audit.CL900.no_rule", rule=unused.rule)
        report.findings.append(finding(UNUSED_SUPPRESSION, Hit(unused.text, {"suppression": unused.text,
                                                                             "detail": detail})))
    for comment in written:
        for rule_id in comment.rules:
            if rule_id not in comment.used and (practice or getattr(get(rule_id), "category", "") != "practice"):
                detail = "" if get(rule_id) else t("audit.CL900.no_rule", rule=rule_id)
                report.findings.append(finding(UNUSED_SUPPRESSION, Hit(
                    f"{comment.file}:{comment.line}:{rule_id}", {"file": comment.file, "line": comment.line, "rule": rule_id,
                                                       "detail": detail}, message="comment",
                    file=comment.file, line=comment.line)))
    return report
