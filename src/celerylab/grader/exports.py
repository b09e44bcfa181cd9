"""Grade exports in the formats instructors upload: Canvas and Moodle grade CSVs, Gradescope results.json.

The CSVs are always comma-separated with a decimal point, as both LMSs import them (``--csv-sep`` is for
the gradebook a spreadsheet opens, not for these); every roster learner has a row, a missing submission
at 0; without a roster no row can be matched to a student, and the grader says so.
"""
from __future__ import annotations

import io
import json
import sys
from pathlib import Path
from urllib.parse import quote

from celerylab.grader.csv_cells import SafeWriter
from celerylab.atomic import write_text
from celerylab.checks.render import criterion_text
from celerylab.grader.entry import Entry
from celerylab.grader.gradebook import BOM, number
from celerylab.i18n import t

FORMATS = ("canvas", "moodle", "gradescope")


LMS_SEP = ","  # what Canvas and Moodle import, whatever the gradebook's --csv-sep


def learners(book) -> dict[tuple, dict]:
    """Per learner: their roster fields and total per lesson; a roster learner with no submission too
    (``missing``: 0 in every lesson). A person is their roster row (by its file), never a name or an ID a
    submission could choose; an entry no row matches is a person of its own, keyed apart (and with no ID, so no
    LMS row takes its score). Two entries of one person for one lesson are a collision: reported, the higher kept."""
    people: dict[tuple, dict] = {}
    for row in book.missing():
        who = (book.roster or {}).get(row["file"]) or {"learner": row["learner"]}
        people.setdefault(("roster", row["file"]), {"who": who, "lessons": {}, "missing": True})
    for key in sorted(book.entries):
        entry = book.entries[key]
        row = entry.roster
        person = people.setdefault(("roster", row["file"]) if row and row.get("file") else ("unmatched", key),
                                   {"who": row or {"learner": entry.learner or key}, "lessons": {}})
        person["missing"] = False
        if entry.lesson and entry.status != "grader_failure":  # not graded yet: blank, not 0
            if entry.lesson in person["lessons"]:
                print(t("grading.export.collision", learner=person["who"].get("learner", key), lesson=entry.lesson,
                        key=key), file=sys.stderr)
                person["lessons"][entry.lesson] = max(person["lessons"][entry.lesson], entry.total)
            else:
                person["lessons"][entry.lesson] = entry.total
    return people


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


def _csv(rows: list[list]) -> str:
    buffer = io.StringIO()
    SafeWriter(buffer, delimiter=LMS_SEP, lineterminator="\r\n").writerows(rows)
    return BOM + buffer.getvalue()


def score(person: dict, lesson: str) -> str:
    value = person["lessons"].get(lesson, 0 if person.get("missing") else "")
    return number(value, LMS_SEP)


def canvas(book) -> str:
    """Canvas' gradebook import: Student, ID, SIS User ID, SIS Login ID, Section, one column per assignment
    (named after the lesson: rename it to the Canvas assignment's name), and the Points Possible row."""
    maxima = lesson_maxima(book)
    lessons = [lesson for lesson in maxima]
    rows = [["Student", "ID", "SIS User ID", "SIS Login ID", "Section", *lessons],
            ["Points Possible", "", "", "", "", *(number(maxima[lesson], LMS_SEP) for lesson in lessons)]]
    for person in learners(book).values():
        who = person["who"]
        rows.append([who.get("learner", ""), who.get("id", ""), who.get("sis_id", ""), who.get("login", ""),
                     who.get("section", ""), *(score(person, lesson) for lesson in lessons)])
    return _csv(rows)


def moodle(book) -> str:
    """Moodle's "Import grades: CSV file": an identifier column to map (e-mail, ID number) and one grade column
    per lesson, mapped to its grade item at import."""
    lessons = list(lesson_maxima(book))
    rows = [["Full name", "Email address", "ID number", *lessons]]
    for person in learners(book).values():
        who = person["who"]
        rows.append([who.get("learner", ""), who.get("email", ""), who.get("sis_id") or who.get("id", ""),
                     *(score(person, lesson) for lesson in lessons)])
    return _csv(rows)


def unmatched(book, fmt: str) -> list[str]:
    """Learners whose row the LMS cannot match to a student: no ID of the kind `fmt` imports by."""
    keys = {"canvas": ("id", "sis_id", "login"), "moodle": ("email", "sis_id", "id")}[fmt]
    return [person["who"].get("learner", "?") for person in learners(book).values()
            if not any(person["who"].get(key) for key in keys)]


def gradescope(entry: Entry, order: list) -> dict:
    """Gradescope's autograder results.json for one submission: each exercise's points in course order, a
    test per criterion (hidden ones visible only once grades are published), and the late penalty as a test
    of its own, so that the tests add up to the score."""
    lang = entry.lang or "pt"
    titles = {info.id: (info.title or {}).get(lang) or info.name for info in order}
    rank = {info.id: index for index, info in enumerate(order)}
    tests = []
    for exercise in sorted(entry.exercises, key=lambda name: (rank.get(name, len(rank)), name)):
        scored = entry.exercises[exercise]
        tests.append({"name": f"{exercise} — {titles.get(exercise, exercise)}", "score": scored.points,
                      "max_score": scored.max, "visibility": "visible", "output": scored.verdict.error or ""})
        for criterion in scored.verdict.criteria:
            label = criterion.label(lang)
            tests.append({"name": f"{exercise}: {label}", "status": "passed" if criterion.passed else "failed",
                          "visibility": "after_published" if criterion.hidden else "visible",
                          "output": criterion_text(criterion, lang)})
    reason = entry.reason or {}
    output = [t(reason["key"], lang=lang, **reason.get("values", {}))] if reason.get("key") else []
    late = entry.late or {}
    if late.get("days"):
        raw = entry.total if entry.raw_total is None else entry.raw_total
        explained = t("grading.feedback.late", lang=lang, days=late["days"], percent=f"{late.get('percent_off', 0):g}",
                      raw=raw)
        output.append(explained)
        penalty = round(entry.total - raw, 2)
        tests.append({"name": t("grading.export.late_test", lang=lang), "score": penalty, "max_score": 0,
                      "visibility": "visible", "output": explained})
    return {"score": entry.total, "visibility": "visible", "output": "\n".join(output), "tests": tests}


def write_exports(book, options) -> list[Path]:
    """Write the formats asked for (`options.exports`) beside the gradebook; the paths written."""
    out, written = Path(options.out), []
    for fmt, render in (("canvas", canvas), ("moodle", moodle)):
        if fmt in options.exports:
            written.append(write_text(out / f"{fmt}.csv", render(book)))
            lost = unmatched(book, fmt)
            if lost:
                print(t(f"grading.export.{fmt}_unmatched", count=len(lost), learners=", ".join(lost[:5])),
                      file=sys.stderr)
    if "gradescope" in options.exports:  # one folder per key, its name the key quoted: distinct keys, distinct folders
        for key, entry in book.entries.items():
            if entry.status == "grader_failure":  # not graded yet: no score to report
                continue
            written.append(write_text(out / "gradescope" / quote(key, safe="") / "results.json",
                                      json.dumps(gradescope(entry, book.order), ensure_ascii=False, indent=2)))
    return written
