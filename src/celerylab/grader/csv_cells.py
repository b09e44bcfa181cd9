"""CSV cells a spreadsheet reads as data: text that would start a formula is neutralised in every CSV the grader writes.

A cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return is a formula (or the start of one)
in Excel, LibreOffice and Google Sheets, even from a CSV import (OWASP's "CSV injection"): a folder or roster
name such as ``=HYPERLINK(...)`` would run in the instructor's spreadsheet. Such text gets a leading ``'``,
which spreadsheets show as text; numbers (a negative late penalty) stay numbers.
"""
from __future__ import annotations

import csv
import io
import re

from celerylab.grader.names import safe_name

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NUMBER = re.compile(r"\A[+-]?\d+([.,]\d+)?\Z")


def safe_cell(value: object) -> object:
    """`value` as a spreadsheet will read it as data: control characters escaped (names.safe_name: no escape
    sequence reaches a terminal that shows the file), a formula-like text quoted, anything else unchanged."""
    if not isinstance(value, str):
        return value
    if value.startswith(FORMULA_STARTS) and not NUMBER.match(value):
        value = "'" + value
    return safe_name(value)


def csv_text(rows: list[list], sep: str) -> str:
    """`rows` as CSV text with `sep`, CRLF line ends, every cell through `safe_cell`."""
    buffer = io.StringIO()
    csv.writer(buffer, delimiter=sep, lineterminator="\r\n").writerows(
        [[safe_cell(cell) for cell in row] for row in rows])
    return buffer.getvalue()
