"""Suppressions in the user's code: `# celerylab-audit: ignore[CL305]` on the finding's line, a task's decorator or def."""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

from celerylab.audit.model import Hit

COMMENT = re.compile(r"#\s*celerylab-audit:\s*ignore\[([A-Za-z0-9_,\s]+)\]")


@dataclass
class Comment:
    file: str
    line: int
    rules: tuple[str, ...]
    used: set[str] = field(default_factory=set)

    @property
    def text(self) -> str:
        return f"{self.file}:{self.line} ignore[{', '.join(self.rules)}]"


def comments(files, folder: str) -> list[Comment]:
    found = []
    for path in files:
        try:
            lines = open(path, encoding="utf-8").read().splitlines()
        except (OSError, UnicodeDecodeError):
            continue
        for number, text in enumerate(lines, 1):
            match = COMMENT.search(text)
            if match:
                rules = tuple(rule.strip().upper() for rule in match.group(1).split(",") if rule.strip())
                found.append(Comment(os.path.relpath(path, folder or None), number, rules))
    return found


def task_of(view, subject: str):
    """The task a finding is about, read from its subject (`name`, `name(param)`, `name:line`, `name.option`)."""
    for candidate in (subject, subject.split("(")[0], subject.rsplit(":", 1)[0], subject.rsplit(".", 1)[0]):
        if candidate in view.tasks:
            return view.tasks[candidate]
    return None


def lines_of(view, hit: Hit) -> tuple[str, int, int] | None:
    """(file, first line, last line) a comment may sit on to silence `hit`."""
    if hit.file and hit.line:
        return hit.file, hit.line, hit.line
    task = task_of(view, hit.subject)
    declared = view.declared(task) if task is not None else None
    if not declared or not declared.file or not declared.line:
        return None
    try:
        source = open(declared.file, encoding="utf-8").read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    last = declared.line
    while last <= len(source) and not source[last - 1].lstrip().startswith(("def ", "async def ")):
        last += 1
    return os.path.relpath(declared.file, view.loaded.folder or None), declared.line, last


def silenced(view, found: list[Comment], rule_id: str, hit: Hit) -> bool:
    if hit.unknown or not found:
        return False
    where = lines_of(view, hit)
    if where is None:
        return False
    file, first, last = where
    matched = [each for each in found if each.file == file and first <= each.line <= last and rule_id in each.rules]
    for each in matched:
        each.used.add(rule_id)
    return bool(matched)
