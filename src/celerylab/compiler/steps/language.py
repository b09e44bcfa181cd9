"""Step 1: keep the cells that exist in the target language and take that language's text."""
from __future__ import annotations

from celerylab.compiler.model import Draft, Target


def pick_language(drafts: list[Draft], target: Target) -> list[Draft]:
    return [Draft(d.id, d.kind, d.origin.texts[target.lang], d.origin)
            for d in drafts if d.origin.lang in (None, target.lang)]
