"""`--explain RULE`: a rule's severity, category, why, fix and lesson link, without any app."""
from __future__ import annotations

from celerylab.audit.registry import get, known_ids
from celerylab.audit.run_rules import text
from celerylab.audit.site import lesson_link
from celerylab.i18n import get_lang, t


def explain(rule_id: str) -> str | None:
    rule = get(rule_id)
    if rule is None:
        return None
    lines = [t("audit.explain.header", rule=rule.id, severity=t(f"audit.severity.{rule.severity}"),
                category=t(f"audit.category.{rule.category}"), title=text(rule, "title", {})),
             f"{t('audit.report.why')}: {text(rule, 'why', {})}",
             f"{t('audit.report.fix')}: {text(rule, 'fix', {})}"]
    url = lesson_link(rule.id, get_lang())
    if url:
        lines.append(t("audit.explain.lesson", url=url))
    return "\n".join(lines)


def unknown_rule(rule_id: str) -> str:
    return t("audit.unknown_rule", rule=rule_id, rules=", ".join(known_ids()))


def rule_list() -> str:
    """One line per rule: id, severity, category, title and the lesson that shows it."""
    from celerylab.audit.registry import UNUSED_SUPPRESSION, all_rules

    lines = []
    for rule in [*all_rules().values(), UNUSED_SUPPRESSION]:
        lines.append(f"{rule.id}  {t(f'audit.severity.{rule.severity}'):8}  {t(f'audit.category.{rule.category}'):9}"
                     f"  {rule.lesson or '-':18}  {text(rule, 'title', {})}")
    return "\n".join(lines)
