"""Step 2: keep the cells whose `part` belongs to the target variant (lesson / exercises / solutions)."""
from __future__ import annotations

from celerylab.compiler.model import Draft, Target


def keep_variant_cells(drafts: list[Draft], target: Target) -> list[Draft]:
    return [d for d in drafts if d.origin.in_variant(target.variant)]
