"""`celerylab doctor`'s lines on what each lesson needs from the machine (its cells' `needs`): present, or how to get it."""
from __future__ import annotations

from celerylab import machine_needs
from celerylab.compiler import parser
from celerylab.course import Course
from celerylab.i18n import t


def lesson_needs(course: Course) -> dict[str, tuple[str, ...]]:
    """Each lesson's needs, in the order its lesson.md first declares them."""
    return {lesson.name: parser.declared_needs(lesson.source) for lesson in course.lessons()}


def lines(course: Course | None = None) -> list[str]:
    out = [t("doctor.needs_title")]
    for lesson, needs in lesson_needs(course or Course.at()).items():
        if not needs:
            out.append(t("doctor.needs_none", lesson=lesson))
        for need in needs:
            if machine_needs.available(need):
                out.append(t("doctor.need_ok", lesson=lesson, need=need))
            else:
                out.append(t("doctor.need_missing", lesson=lesson, need=need, how=machine_needs.how_to_get(need)))
    return out
