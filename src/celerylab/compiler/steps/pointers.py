"""Step 2: in the lesson notebook, each exercise's answer cell gives way to a pointer to the exercises notebook."""
from __future__ import annotations

from dataclasses import replace

from celerylab.compiler.model import Draft, Target
from celerylab.course import FOLDERS
from celerylab.i18n import t


def point_to_exercises(drafts: list[Draft], target: Target) -> list[Draft]:
    """The lesson keeps each statement; where the answer was, a markdown cell names the notebook that holds it."""
    if target.variant != "lesson":
        return drafts
    notebook = f"{FOLDERS['exercises']}/{target.lang}/{target.lesson.file_name(target.lang, 'exercises')}"
    pointed = []
    for draft in drafts:
        exercise = draft.origin.exercise
        if exercise and "." not in exercise:
            exercise = f"{target.lesson.prefix}.{exercise}"
        if not exercise:
            pointed.append(draft)
            continue
        text = t("build.exercise_pointer", lang=target.lang, notebook=notebook, exercise=exercise)
        origin = replace(draft.origin, id=f"{draft.origin.id}-pointer", kind="markdown", exercise=None,
                         check=None, part="lesson", tags=[], site={}, points_to=exercise)
        pointed.append(Draft(origin.id, "markdown", text, origin))
    return pointed
