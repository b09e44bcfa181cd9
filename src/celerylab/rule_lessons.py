"""Which lesson section shows each `celerylab audit` rule, built from the `audit` keys of the lessons' cells."""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from celerylab.course import Course, Lesson


@dataclass(frozen=True)
class Shown:
    """A rule shown live: the lesson, the cell whose section shows it, and whether it is the lesson that teaches it
    (findings link there) or one that shows it again in another setting."""

    rule: str
    lesson: Lesson
    cell: str
    first: bool


def shown(course: Course | None = None) -> list[Shown]:
    """Every (rule, lesson section) pair the lessons declare, in course order, teaching lessons before the others."""
    lessons = (course or Course()).lessons()
    return list(_shown(tuple((lesson, _stamp(lesson)) for lesson in lessons)))


def _stamp(lesson: Lesson) -> tuple:
    stat = lesson.source.stat()
    return stat.st_mtime_ns, stat.st_size


@lru_cache(maxsize=8)
def _shown(lessons: tuple) -> tuple[Shown, ...]:
    from celerylab.compiler.sections import declared_rules

    found: list[Shown] = []
    for lesson, _ in lessons:
        first, again = declared_rules(lesson.source)
        found += [Shown(rule, lesson, cell, True) for rule, cell in first.items()]
        found += [Shown(rule, lesson, cell, False) for rule, cell in again.items() if rule not in first]
    return tuple(sorted(found, key=lambda item: not item.first))


def teaching(rule_id: str, course: Course | None = None) -> Shown | None:
    """The lesson section that teaches `rule_id` (the first lesson declaring it in `audit`), None when none does."""
    return next((item for item in shown(course) if item.rule == rule_id and item.first), None)


def lesson_of(rule_id: str, course: Course | None = None) -> str:
    """The lesson folder that teaches `rule_id` ("" for the run's own findings)."""
    found = teaching(rule_id, course)
    return found.lesson.name if found else ""


def taught_in(lesson: str, course: Course | None = None) -> dict[str, str]:
    """Every rule `lesson` shows live, first or again: {rule id: cell id of its section}."""
    return {item.rule: item.cell for item in reversed(shown(course)) if item.lesson.name == lesson}


def section_path(item: Shown, lang: str) -> str:
    """`NN_slug/#section` of the section that shows `item`, in `lang` (the page itself when the cell opens it)."""
    from celerylab.compiler.sections import section_anchor

    return f"{item.lesson.stem}/{section_anchor(item.lesson.source, item.cell, lang)}"


def lesson_url(rule_id: str, lang: str = "pt", course: Course | None = None) -> str:
    """The site path of the lesson section that teaches `rule_id`, in `lang`; "" when no lesson does."""
    found = teaching(rule_id, course)
    return f"{'en/' if lang == 'en' else ''}lessons/{section_path(found, lang)}" if found else ""
