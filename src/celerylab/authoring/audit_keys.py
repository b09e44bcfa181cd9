"""A lesson's `audit` / `audit_again` cell keys name rules `celerylab audit` has, and each rule has one teaching lesson."""
from __future__ import annotations

from pathlib import Path

from celerylab.authoring.problems import Problem
from celerylab.compiler.model import SourceCell


def audit_key_problems(folder: Path, cells: list[SourceCell], teachers: dict[str, str]) -> list[Problem]:
    """Unknown rule ids in the lesson's cells, and rules another lesson of the course already teaches (`audit`:
    findings link to one lesson; a lesson that shows the rule again says `audit_again`). `teachers` (rule id ->
    lesson) grows with this lesson's rules."""
    from celerylab.audit.registry import known_ids

    known = set(known_ids())
    problems = []
    source = folder / "lesson.md"
    for cell in cells:
        for rule in sorted({*cell.audit, *cell.audit_again} - known):
            problems.append(Problem(source, cell.line, "dev.p.audit_unknown", {"rule": rule, "cell": cell.id}))
        for rule in cell.audit:
            other = teachers.setdefault(rule, folder.name)
            if other != folder.name:
                problems.append(Problem(source, cell.line, "dev.p.audit_twice", {"rule": rule, "other": other}))
    return problems
