"""The site's audit pages: every `celerylab audit` rule with its lessons, and each lesson's list of the rules it teaches."""
from __future__ import annotations

from celerylab.audit.audit_messages import catalog
from celerylab.audit.registry import all_rules
from celerylab.audit.run_rules import Lenient
from celerylab.compiler.sections import section_anchor
from celerylab.course import Lesson
from celerylab.i18n import t
from celerylab.rule_lessons import shown, taught_in

AUDIT_PAGE = "audit.md"


def section_link(lesson: Lesson, cell: str, lang: str, folder: str) -> str:
    """`folder/NN_slug.md#section` for the section holding `cell` of `lesson`, in `lang`; the page if there is none."""
    return f"{folder}/{lesson.stem}.md{section_anchor(lesson.source, cell, lang)}"


class Named(Lenient):
    """Placeholders shown as what they stand for (`<attribute>`), for a page about the rule, not about one finding."""

    def get_value(self, key, args, kwargs):
        return f"<{key}>"


def rule_text(rule, part: str, lang: str) -> str:
    """A rule's `part` (title, why, fix) in `lang`, each placeholder shown by its name."""
    texts = catalog().get(rule.key(part))
    return Named().vformat(texts[lang], (), {}) if texts else ""


def rule_anchor(rule_id: str) -> str:
    return rule_id.lower()


def rules_page(lang: str, titles: dict[str, str]) -> str:
    """Every rule, in id order: what it finds, why, how to fix it, and the lessons (by `titles`) that show it live."""
    lines = [f"# {t('site.audit.title', lang)}", "", t("site.audit.intro", lang), ""]
    for rule in sorted(all_rules().values(), key=lambda rule: rule.id):
        lines += [f"## {rule.id} — {rule_text(rule, 'title', lang)} {{#{rule_anchor(rule.id)}}}", "",
                  t("site.audit.facts", lang, severity=t(f"audit.severity.{rule.severity}", lang),
                     category=t(f"audit.category.{rule.category}", lang)), "",
                  t("site.audit.why", lang, text=rule_text(rule, "why", lang)), "",
                  t("site.audit.fix", lang, text=rule_text(rule, "fix", lang)), ""]
        links = [f"[{titles[item.lesson.stem]}]({section_link(item.lesson, item.cell, lang, 'lessons')})"
                 for item in shown() if item.rule == rule.id and item.lesson.stem in titles]
        if links:
            lines += [t("site.audit.shown_in", lang, links=", ".join(links)), ""]
    return "\n".join(lines)


def lesson_rules(stem: str, lang: str) -> str:
    """A lesson page's closing section: the audit rules it teaches, linked to the rules page ("" if none)."""
    rules = taught_in(f"l{stem}")
    known = all_rules()
    if not rules:
        return ""
    items = [f"- [{rule_id}](../{AUDIT_PAGE}#{rule_anchor(rule_id)}) — {rule_text(known[rule_id], 'title', lang)}"
             for rule_id in sorted(rules) if rule_id in known]
    return "\n".join([f"## {t('site.audit.lesson_rules', lang)}", "", t("site.audit.lesson_rules_intro", lang), "",
                      *items])
