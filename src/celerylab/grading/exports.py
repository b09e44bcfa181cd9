"""Grade exports in the formats instructors upload: Canvas and Moodle grade CSVs, Gradescope results.json."""
from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from celerylab.grading.atomic import write_text
from celerylab.grading.gradebook import BOM, number
from celerylab.i18n import t

FORMATS = ("canvas", "moodle", "gradescope")


def learners(book) -> dict[str, dict]:
    """Per learner (roster row or submission key): their roster fields and total per lesson."""
    people: dict[str, dict] = {}
    for key in sorted(book.entries):
        entry = book.entries[key]
        who = entry.get("roster") or {"learner": entry.get("learner") or key}
        person = people.setdefault(who.get("id") or who.get("email") or who["learner"], {"who": who, "lessons": {}})
        if entry.get("lesson") and entry.get("status") != "grader_failure":  # not graded yet: blank, not 0
            person["lessons"][entry["lesson"]] = entry.get("total", 0)
    return people


def lesson_maxima(book) -> dict[str, int]:
    """The lessons the submissions are of, in course order, each with its maximum."""
    present = {entry.get("lesson") for entry in book.entries.values()} - {None}
    maxima: dict[str, int] = {}
    for info in book.order:
        if info.lesson in present:
            maxima[info.lesson] = maxima.get(info.lesson, 0) + info.points
    for entry in book.entries.values():
        if entry.get("lesson") and entry["lesson"] not in maxima:
            maxima[entry["lesson"]] = entry.get("max", 0)
    return maxima


def _csv(rows: list[list], sep: str) -> str:
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=sep, lineterminator="\r\n").writerows(rows)
    return BOM + buffer.getvalue()


def canvas(book) -> str:
    """Canvas' gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, one column per assignment
    (named after the lesson: rename it to the Canvas assignment's name), and the Points Possible row."""
    maxima = lesson_maxima(book)
    lessons = [lesson for lesson in maxima]
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *lessons],
            ["Points Possible", "", "", "", "", *(number(maxima[lesson], book.sep) for lesson in lessons)]]
    for person in learners(book).values():
        who = person["who"]
        rows.append([who.get("learner", ""), who.get("id", ""), who.get("sis_id", ""), who.get("login", ""),
                     who.get("section", ""), *(number(person["lessons"].get(lesson, ""), book.sep) for lesson in lessons)])
    return _csv(rows, book.sep)


def moodle(book) -> str:
    """Moodle's "Import grades: CSV file": an identifier column to map (e-mail, ID number) and one grade column
    per lesson, mapped to its grade item at import."""
    lessons = list(lesson_maxima(book))
    rows = [["Full name", "Email address", "ID number", *lessons]]
    for person in learners(book).values():
        who = person["who"]
        rows.append([who.get("learner", ""), who.get("email", ""), who.get("sis_id") or who.get("id", ""),
                     *(number(person["lessons"].get(lesson, ""), book.sep) for lesson in lessons)])
    return _csv(rows, book.sep)


def gradescope(entry: dict, order: list) -> dict:
    """Gradescope's autograder results.json for one submission: a test per visible criterion, hidden ones
    visible only once grades are published, and each exercise's points."""
    lang = entry.get("lang") or "pt"
    titles = {info.id: (info.title or {}).get(lang) or info.name for info in order}
    tests = []
    for exercise, scored in entry.get("exercises", {}).items():
        tests.append({"name": f"{exercise} — {titles.get(exercise, exercise)}", "score": scored.get("points", 0),
                      "max_score": scored.get("max", 0), "visibility": "visible",
                      "output": scored.get("error") or ""})
        for criterion in scored.get("criteria", []):
            label = (criterion.get("labels") or {}).get(lang) or str(criterion.get("key"))
            output = t("check.criterion", lang=lang, mark="✔" if criterion.get("passed") else "✘", label=label,
                       expected=criterion.get("expected"), observed=criterion.get("observed"))
            tests.append({"name": f"{exercise}: {label}", "status": "passed" if criterion.get("passed") else "failed",
                          "visibility": "after_published" if criterion.get("hidden") else "visible", "output": output})
    reason = entry.get("reason") or {}
    output = t(reason["key"], lang=lang, **reason.get("values", {})) if reason.get("key") else ""
    return {"score": entry.get("total", 0), "visibility": "visible", "output": output, "tests": tests}


def write_exports(book, options) -> list[Path]:
    """Write the formats asked for (`options.exports`) beside the gradebook; the paths written."""
    out, written = Path(options.out), []
    if "canvas" in options.exports:
        written.append(write_text(out / "canvas.csv", canvas(book)))
    if "moodle" in options.exports:
        written.append(write_text(out / "moodle.csv", moodle(book)))
    if "gradescope" in options.exports:
        for key, entry in book.entries.items():
            written.append(write_text(out / "gradescope" / key / "results.json",
                                      json.dumps(gradescope(entry, book.order), ensure_ascii=False, indent=2)))
    return written
