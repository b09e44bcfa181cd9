"""CSV cells a spreadsheet never runs: text starting with = + - @, a tab or a carriage return is neutralised.

Every CSV the grader writes (gradebook.csv, criteria.csv, canvas.csv, moodle.csv) holds text learners chose:
folder and file names, roster names, observed values. Excel, LibreOffice and Google Sheets read such a cell as a
formula (``=HYPERLINK(...)``, ``@SUM(...)``); OWASP's rule is to prefix it with a single quote. Numbers, even
negative ones (a late penalty), are kept as they are.
"""
from __future__ import annotations

import csv

TRIGGERS = ("=", "+", "-", "@", "\t", "\r")


def is_number(text: str) -> bool:
    try:
        float(text.replace(",", "."))
    except ValueError:
        return False
    return text.strip() == text and text.lower().lstrip("+-") not in ("nan", "inf", "infinity")


def neutral(value) -> object:
    """`value` as a spreadsheet may show it but never evaluate."""
    if isinstance(value, str) and value.startswith(TRIGGERS) and not is_number(value):
        return "'" + value
    return value


class SafeWriter:
    """csv.writer whose rows are neutralised cell by cell."""

    def __init__(self, stream, **options):
        self.writer = csv.writer(stream, **options)

    def writerow(self, row) -> None:
        self.writer.writerow([neutral(value) for value in row])

    def writerows(self, rows) -> None:
        for row in rows:
            self.writerow(row)
