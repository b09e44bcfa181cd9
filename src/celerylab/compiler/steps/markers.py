"""Step 3: exercise cells keep their stubs for learners and their solutions everywhere else."""
from __future__ import annotations

from celerylab.compiler import markers
from celerylab.compiler.model import Draft, Target


def resolve_markers(drafts: list[Draft], target: Target) -> list[Draft]:
    keep = "STUB" if target.variant == "exercises" else "SOLUTION"
    return [Draft(d.id, d.kind, markers.keep_region(d.source, keep), d.origin) if d.origin.exercise else d
            for d in drafts]
