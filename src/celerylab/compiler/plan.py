"""A lesson's plan: its six targets (3 variants x 2 languages) and their unexecuted notebooks."""
from __future__ import annotations

from nbformat import NotebookNode

from celerylab.compiler.digest import lesson_digest
from celerylab.compiler.model import LANGS, VARIANTS, Lesson, Target
from celerylab.compiler.parser import parse_file
from celerylab.compiler.steps import generate


def plan_lesson(lesson: Lesson, langs: tuple[str, ...] = LANGS) -> dict[Target, NotebookNode]:
    """Parse the lesson once and generate every requested notebook, languages first, in variant order."""
    cells = parse_file(lesson.source)
    digest = lesson_digest(lesson)
    return {target: generate(cells, target, digest)
            for target in (Target(lesson, lang, variant) for lang in langs for variant in VARIANTS)}
