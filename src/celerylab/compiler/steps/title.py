"""Step 4: the exercises notebook's title says what it is (the lesson's first heading, as exercises)."""
from __future__ import annotations

from dataclasses import replace

from celerylab.compiler.model import Draft, Target
from celerylab.i18n import t


def title_exercises(drafts: list[Draft], target: Target) -> list[Draft]:
    """In the exercises variant, ``# Lição 01 — x`` in the first markdown cell becomes ``# Exercícios · Lição 01 — x``."""
    if target.variant != "exercises":
        return drafts
    first = next((index for index, draft in enumerate(drafts) if draft.kind == "markdown"), None)
    if first is None:
        return drafts
    lines = drafts[first].source.split("\n")
    for number, line in enumerate(lines):
        if line.startswith("# "):
            lines[number] = "# " + t("build.exercises_title", lang=target.lang, title=line[2:].strip())
            return [*drafts[:first], replace(drafts[first], source="\n".join(lines)), *drafts[first + 1:]]
    return drafts
