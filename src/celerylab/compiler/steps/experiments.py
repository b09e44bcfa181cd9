"""Step 2: an experiment cell gets the source of the experiment modules it names, followed by its call."""
from __future__ import annotations

from celerylab.compiler import experiments
from celerylab.compiler.errors import SourceError
from celerylab.compiler.model import Draft, Target


def include_experiments(drafts: list[Draft], target: Target) -> list[Draft]:
    folder = target.lesson.folder
    for draft in drafts:
        if draft.kind == "code" and experiments.missing(folder, draft.source):
            raise SourceError(target.lesson.source, draft.origin.line, "build.err.no_experiment",
                              names=", ".join(experiments.missing(folder, draft.source)),
                              folder=folder / experiments.FOLDER)
    return [Draft(d.id, d.kind, experiments.expand(folder, d.source), d.origin) if d.kind == "code" else d
            for d in drafts]
