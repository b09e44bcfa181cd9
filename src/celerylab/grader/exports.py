"""Grade exports in the formats instructors upload: Canvas and Moodle grade CSVs (and Gradescope results.json).

The CSVs are always comma-separated with a decimal point, as both LMSs import them (``--csv-sep`` is for
the gradebook a spreadsheet opens, not for these). People are keyed by their roster row (a submission that
matches no row is a person of its own, never merged into a roster learner by a name, an id or an e-mail);
every roster learner has a row, a missing or ungradable submission at 0 (blank only while the grader failed on
it); two submissions of one learner for one lesson export the lowest of their grades (the grader names them). Canvas matches a row by its ``ID`` (Canvas's own user id),
else ``SIS User ID``, else ``SIS Login ID``, else the name, and an assignment column ``Title (id)`` by its id;
Moodle maps one identifier column, and a row without it aborts the whole import, so such rows are left out
and named.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

from celerylab.atomic import write_text
from celerylab.grader.csv_cells import csv_text
from celerylab.grader.export_gradescope import gradescope, gradescope_folder
from celerylab.grader.export_people import clashes, learners, lesson_maxima
from celerylab.grader.gradebook import BOM, number
from celerylab.grader.names import safe_name
from celerylab.i18n import t

FORMATS = ("canvas", "moodle", "gradescope")
LMS_SEP = ","  # what Canvas and Moodle import, whatever the gradebook's --csv-sep


def _csv(rows: list[list]) -> str:
    return BOM + csv_text(rows, LMS_SEP)


def score(person: dict, lesson: str) -> str:
    """A person's grade for `lesson`: their graded total; blank while the grader owes them one (it failed on their
    file); else 0, whether they handed in nothing or a file that could not be graded (a damaged notebook)."""
    if lesson in person["lessons"]:
        value = person["lessons"][lesson]
        return number("" if value is None else value, LMS_SEP)
    pending = person.get("pending") or set()
    return "" if lesson in pending or None in pending else number(0, LMS_SEP)


def canvas_column(lesson: str, assignments: dict[str, str]) -> str:
    """A lesson's column: ``Title (id)`` when the Canvas assignment's id is known (Canvas matches it by the id),
    else the lesson's name (Canvas creates an assignment of that name)."""
    return f"{lesson} ({assignments[lesson]})" if lesson in assignments else lesson


def moodle_identifier(people: dict) -> str:
    """The roster field moodle.csv is mapped by: the e-mail when any learner has one, else the ID number."""
    return "email" if any(person["who"].get("email") for person in people.values()) else "sis_id"


def moodle_id(who: dict, field: str) -> str:
    return who.get(field, "") if field == "email" else (who.get("sis_id") or who.get("id", ""))


def canvas(book, assignments: dict[str, str] | None = None) -> str:
    """Canvas' gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, one column per lesson (named
    ``Title (id)`` for each `assignments` lesson → Canvas assignment id), and the Points Possible row."""
    maxima = lesson_maxima(book)
    lessons = list(maxima)
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section",
             *(canvas_column(lesson, assignments or {}) for lesson in lessons)],
            ["Points Possible", "", "", "", "", *(number(maxima[lesson], LMS_SEP) for lesson in lessons)]]
    for person in learners(book).values():
        who = person["who"]
        rows.append([who.get("learner", ""), who.get("id", ""), who.get("sis_id", ""), who.get("login", ""),
                     who.get("section", ""), *(score(person, lesson) for lesson in lessons)])
    return _csv(rows)


def moodle(book) -> str:
    """Moodle's "Import grades: CSV file": the identifier column to map (e-mail, else ID number) and one grade
    column per lesson, mapped to its grade item at import. Rows without the identifier are left out."""
    lessons = list(lesson_maxima(book))
    people = learners(book)
    field = moodle_identifier(people)
    rows = [["Full name", "Email address" if field == "email" else "ID number", *lessons]]
    for person in people.values():
        who = person["who"]
        if moodle_id(who, field):
            rows.append([who.get("learner", ""), moodle_id(who, field), *(score(person, lesson) for lesson in lessons)])
    return _csv(rows)


def unmatched(book, fmt: str) -> list[str]:
    """Learners whose row the LMS cannot match to a student: for Canvas no ID of any kind (it falls back to the
    name), for Moodle no value in the column it maps by (those rows are left out of moodle.csv)."""
    people = learners(book)
    if fmt == "moodle":
        field = moodle_identifier(people)
        return [person["who"].get("learner", "?") for person in people.values() if not moodle_id(person["who"], field)]
    return [person["who"].get("learner", "?") for person in people.values()
            if not any(person["who"].get(key) for key in ("id", "sis_id", "login"))]


def write_exports(book, options) -> list[Path]:
    """Write the formats asked for (`options.exports`) beside the gradebook; the paths written."""
    out, written = Path(options.out), []
    renders = {"canvas": lambda: canvas(book, options.canvas_assignments), "moodle": lambda: moodle(book)}
    for fmt in ("canvas", "moodle"):
        if fmt in options.exports:
            written.append(write_text(out / f"{fmt}.csv", renders[fmt]()))
            lost = unmatched(book, fmt)
            if lost:
                print(t(f"grading.export.{fmt}_unmatched", count=len(lost),
                        learners=", ".join(safe_name(str(name)) for name in lost[:5])), file=sys.stderr)
    double = clashes(book) if {"canvas", "moodle"} & set(options.exports) else []
    if double:
        print(t("grading.export.clashes", count=len(double), clashes="; ".join(safe_name(str(clash)) for clash in double[:5])),
              file=sys.stderr)
    if "gradescope" in options.exports:
        for key, entry in book.entries.items():
            if entry.status == "grader_failure":  # not graded yet: no score to report
                continue
            written.append(write_text(out / "gradescope" / gradescope_folder(key) / "results.json",
                                      json.dumps(gradescope(entry, book.order), ensure_ascii=False, indent=2)))
    return written
