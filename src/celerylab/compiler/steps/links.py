"""Step 6: in the exercises and solutions notebooks, links to a lesson notebook point to where it really is."""
from __future__ import annotations

import re
from dataclasses import replace

from celerylab.compiler.model import Draft, Target
from celerylab.course import FOLDERS

# A relative link to a lesson notebook, such as ``](02_workers.ipynb)`` or ``](02_workers.ipynb#section)``:
# written for the lesson notebooks, which sit side by side in notebooks/<lang>/.
LESSON_LINK = re.compile(r"\]\((\d\d_[a-z0-9_]+\.ipynb)(#[^)\s]*)?\)")


def relink_lessons(drafts: list[Draft], target: Target) -> list[Draft]:
    """Outside notebooks/<lang>/, a lesson notebook is ``../../notebooks/<lang>/NN_slug.ipynb``."""
    if target.variant == "lesson":
        return drafts
    prefix = f"../../{FOLDERS['lesson']}/{target.lang}/"

    def relink(match: re.Match) -> str:
        return f"]({prefix}{match.group(1)}{match.group(2) or ''})"

    return [replace(draft, source=LESSON_LINK.sub(relink, draft.source)) if draft.kind == "markdown" else draft
            for draft in drafts]
