"""The generator: an explicit, ordered list of steps from parsed cells to one notebook per Target."""
from __future__ import annotations

from nbformat import NotebookNode

from celerylab.compiler.model import Draft, SourceCell, Target
from celerylab.compiler.steps.assemble import to_notebook
from celerylab.compiler.steps.experiments import include_experiments
from celerylab.compiler.steps.language import pick_language
from celerylab.compiler.steps.links import relink_lessons
from celerylab.compiler.steps.markers import resolve_markers
from celerylab.compiler.steps.parts import keep_variant_cells
from celerylab.compiler.steps.pointers import point_to_exercises
from celerylab.compiler.steps.title import title_exercises

# Order matters: a language is picked first (lang-only cells vanish), then experiment cells get their
# modules' source, then the lesson notebook's
# answer cells become pointers to the exercises notebook, then the variant's parts are kept (the
# lesson drops its checks), then exercise cells lose their solutions or stubs, then the exercises
# notebook gets its own title, then links to lesson notebooks are made relative to where each notebook
# lives; assembly comes last.
STEPS = [
    pick_language,
    include_experiments,
    point_to_exercises,
    keep_variant_cells,
    resolve_markers,
    title_exercises,
    relink_lessons,
]


def generate(cells: list[SourceCell], target: Target, digest: str) -> NotebookNode:
    """The unexecuted notebook for `target`, built by running every step in order."""
    drafts: list[Draft] = [Draft(cell.id, cell.kind, "", cell) for cell in cells]
    for step in STEPS:
        drafts = step(drafts, target)
    return to_notebook(drafts, target, digest)
