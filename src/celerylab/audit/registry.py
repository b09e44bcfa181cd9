"""The rules: each check registers itself with its id, severity and category; the lesson is the one whose cells teach it."""
from __future__ import annotations

import importlib

from celerylab.audit.model import CATEGORIES, SEVERITIES, Rule

RULES: dict[str, Rule] = {}
RULE_MODULES = ("settings", "registration", "serialization", "limits", "retries", "delivery", "results", "beat",
                "queues", "source", "transactions", "reach", "task_code",
                "states", "wiring", "stray")


def rule(rule_id: str, slug: str, severity: str, category: str):
    """Register the decorated `check(view) -> Iterable[Hit]` as rule `rule_id`."""
    assert severity in SEVERITIES and category in CATEGORIES, (severity, category)

    def register(check):
        if rule_id in RULES:
            raise ValueError(f"rule {rule_id} registered twice")
        RULES[rule_id] = Rule(rule_id, slug, severity, category, check)
        return check

    return register


# The run's own finding (a suppression that silenced nothing): not a check, but explained and reported like one.
UNUSED_SUPPRESSION = Rule("CL900", "unused-suppression", "low", "defect", lambda view: ())


def all_rules() -> dict[str, Rule]:
    """Every rule, by id, in id order (importing the rule modules registers them)."""
    for name in RULE_MODULES:
        importlib.import_module(f"celerylab.audit.rules.{name}")
    return {rule_id: RULES[rule_id] for rule_id in sorted(RULES)}


def known_ids() -> list[str]:
    return [*all_rules(), UNUSED_SUPPRESSION.id]


def get(rule_id: str) -> Rule | None:
    return all_rules().get(rule_id.upper()) or (UNUSED_SUPPRESSION if rule_id.upper() == UNUSED_SUPPRESSION.id else None)
