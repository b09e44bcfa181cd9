"""Who the exports are about: one person per roster row (or per unmatched submission), their score per lesson."""
from __future__ import annotations


def learners(book) -> dict[tuple[str, str], dict]:
    """Per person, keyed ``("roster", row)`` or ``("unmatched", submission key)``: their roster fields, total per
    lesson, ``missing`` (a roster learner with no submission: 0 in every lesson), ``pending`` (lessons whose
    submission the grader failed on, ``None`` when that file's lesson is unknown: not graded yet, so no score) and
    ``clashes`` (lessons with two submissions or more: the lowest of their totals counts, so a second copy can never
    blank a 0, and the export warns that the instructor should check which one counts)."""
    people: dict[tuple[str, str], dict] = {}
    for row_key, row in (book.roster or {}).items():
        people[("roster", row_key)] = {"who": row, "lessons": {}, "missing": True, "clashes": {}, "pending": set()}
    for key in sorted(book.entries):
        entry = book.entries[key]
        row_key = str((entry.roster or {}).get("file") or "")
        ident = ("roster", row_key) if ("roster", row_key) in people else ("unmatched", key)
        who = entry.roster if ident[0] == "roster" else {"learner": entry.learner or key}
        person = people.setdefault(ident, {"who": who, "lessons": {}, "missing": True, "clashes": {}, "pending": set()})
        person["missing"] = False
        if entry.status == "grader_failure":  # not graded yet: blank, not 0
            person["pending"].add(entry.lesson)
        elif entry.lesson:
            person["clashes"].setdefault(entry.lesson, []).append(key)
            totals = person.setdefault("totals", {}).setdefault(entry.lesson, [])
            totals.append(entry.total)
            person["lessons"][entry.lesson] = min(totals)
    for person in people.values():
        person["clashes"] = {lesson: keys for lesson, keys in person["clashes"].items() if len(keys) > 1}
        person.pop("totals", None)
    return people


def clashes(book) -> list[str]:
    """``lesson: key, key`` for each learner and lesson with more than one submission."""
    return [f"{lesson}: {', '.join(keys)}" for person in learners(book).values()
            for lesson, keys in person["clashes"].items()]


def lesson_maxima(book) -> dict[str, int]:
    """The lessons the submissions are of, in course order, each with its maximum."""
    present = {entry.lesson for entry in book.entries.values()} - {None}
    maxima: dict[str, int] = {}
    for info in book.order:
        if info.lesson in present:
            maxima[info.lesson] = maxima.get(info.lesson, 0) + info.points
    for entry in book.entries.values():
        if entry.lesson and entry.lesson not in maxima:
            maxima[entry.lesson] = entry.max
    return maxima
