"""What a rule is (id, severity, category, lesson) and what it reports (a finding, decided or not)."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

SEVERITIES = ("critical", "high", "medium", "low")
CATEGORIES = ("defect", "practice")


@dataclass(frozen=True)
class Hit:
    """What a check yields: the subject (setting, task, entry) and the message's values.

    `unknown=True`: the rule could not decide for this subject (never counted as clean, never suppressible).
    `message`: another message key of the rule (e.g. "transport") instead of "message".
    """

    subject: str
    values: dict = field(default_factory=dict)
    unknown: bool = False
    message: str = "message"
    file: str | None = None
    line: int | None = None
    # Where the source names the subject, outermost first: ("task_routes", "reports.*") is the key "reports.*"
    # inside the value given to task_routes (not the same string in task_annotations).
    anchor: tuple[str, ...] = ()


@dataclass(frozen=True)
class Rule:
    id: str
    slug: str
    severity: str
    category: str
    check: Callable[..., Iterable[Hit]]

    @property
    def lesson(self) -> str:
        """The lesson folder that teaches the rule, read from the lessons when asked (never at the rules' import)."""
        from celerylab.rule_lessons import lesson_of

        return lesson_of(self.id)

    def key(self, part: str) -> str:
        return f"audit.{self.id}.{part}"


@dataclass(frozen=True)
class Finding:
    """One hit of one rule, with everything a report prints (already in the language in force)."""

    rule: Rule
    hit: Hit
    message: str
    why: str
    fix: str
    url: str

    @property
    def unknown(self) -> bool:
        return self.hit.unknown

    @property
    def subject(self) -> str:
        return self.hit.subject
