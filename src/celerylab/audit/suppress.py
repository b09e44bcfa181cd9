"""Suppressions (`--ignore RULE` or `RULE:subject`): each must silence something, and an undecided finding is never silenced."""
from __future__ import annotations

from dataclasses import dataclass, field
from fnmatch import fnmatchcase

from celerylab.audit.model import Hit


@dataclass
class Suppression:
    text: str
    rule: str
    subject: str | None
    used: int = 0

    @classmethod
    def parse(cls, text: str) -> "Suppression":
        rule, _, subject = text.partition(":")
        return cls(text, rule.strip().upper(), subject.strip() or None)

    def silences(self, rule_id: str, hit: Hit) -> bool:
        if hit.unknown or rule_id != self.rule:
            return False
        return self.subject is None or fnmatchcase(hit.subject, self.subject)


@dataclass
class Suppressions:
    items: list[Suppression] = field(default_factory=list)

    @classmethod
    def parse(cls, texts) -> "Suppressions":
        return cls([Suppression.parse(text) for text in texts or ()])

    def silenced(self, rule_id: str, hit: Hit) -> bool:
        """True (and counted) when some suppression covers this hit."""
        matched = [each for each in self.items if each.silences(rule_id, hit)]
        for each in matched:
            each.used += 1
        return bool(matched)

    def unused(self) -> list[Suppression]:
        return [each for each in self.items if not each.used]
