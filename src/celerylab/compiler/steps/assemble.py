"""Last step: drafts -> an nbformat 4.5 notebook with stable cell ids and celerylab metadata."""
from __future__ import annotations

import nbformat
from nbformat import NotebookNode
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from celerylab.compiler.model import Draft, Target

KERNELSPEC = {"name": "python3", "display_name": "Python 3 (ipykernel)", "language": "python"}
LANGUAGE_INFO = {"name": "python"}


def cell_metadata(draft: Draft, lang: str | None = None) -> dict:
    meta: dict = {"celerylab": {"id": draft.id}}
    for key in ("exercise", "check", "points_to"):
        if getattr(draft.origin, key):
            meta["celerylab"][key] = getattr(draft.origin, key)
    if draft.origin.lang:
        meta["celerylab"]["lang"] = draft.origin.lang
    if draft.origin.part == "solutions":  # shown once solved: the check prints it after a pass
        meta["celerylab"]["solved_only"] = True
    if draft.origin.tags:
        meta["tags"] = list(draft.origin.tags)
    for key, value in draft.origin.site.items():  # the site's keys; "alt" in the notebook's language only
        meta["celerylab"][key] = value.get(lang, "") if key == "alt" and isinstance(value, dict) else value
    return meta


def notebook_metadata(target: Target, digest: str) -> dict:
    meta = {"lesson": target.lesson.name, "lang": target.lang, "variant": target.variant,
            "source_digest": digest}
    if target.executed:
        meta["executed"] = False
    return {"kernelspec": dict(KERNELSPEC), "language_info": dict(LANGUAGE_INFO), "celerylab": meta}


def to_notebook(drafts: list[Draft], target: Target, digest: str) -> NotebookNode:
    make = {"code": new_code_cell, "markdown": new_markdown_cell}
    cells = [make[d.kind](source=d.source, id=d.id, metadata=cell_metadata(d, target.lang)) for d in drafts]
    notebook = new_notebook(cells=cells, metadata=notebook_metadata(target, digest))
    notebook.nbformat, notebook.nbformat_minor = 4, 5
    nbformat.validate(notebook)
    return notebook
