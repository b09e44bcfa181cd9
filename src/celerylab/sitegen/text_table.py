"""Recognise a printed fixed-width table (columns padded, two spaces apart) and turn it into a Markdown table."""
from __future__ import annotations

MIN_GUTTER = 2
GUTTER = " " * MIN_GUTTER


def _columns(lines: list[str]) -> list[tuple[int, int]]:
    """(start, end) of each column: the gutters are runs of at least two positions blank in every line."""
    width = max(len(line) for line in lines)
    blank = [all(i >= len(line) or line[i] == " " for line in lines) for i in range(width)]
    spans, start, run = [], 0, 0
    for i, is_blank in enumerate(blank):
        if is_blank:
            run += 1
            continue
        if run >= MIN_GUTTER and i - run > start:
            spans.append((start, i - run))
            start = i
        run = 0
    spans.append((start, width))
    return spans


def _rows(lines: list[str]) -> list[list[str]] | None:
    """The cells of `lines` read as one table, or None when they are not one."""
    if len(lines) < 2:
        return None
    spans = _columns(lines)
    rows = [[line[a:b].strip() for a, b in spans] for line in lines]
    if len(spans) < 2 or not all(rows[0]) or any(not row[0] for row in rows):
        return None
    return rows


def _merged(rows: list[list[str]]) -> bool:
    """A cell holding a gutter: tables of different columns printed one after the other, read as one."""
    return any(GUTTER in value for row in rows for value in row)


def _starts(line: str) -> tuple[int, ...]:
    """Where the line's fields begin: its first character and every one after a gutter."""
    return tuple(i for i, ch in enumerate(line) if ch != " " and (i == 0 or line[max(0, i - MIN_GUTTER):i] == GUTTER))


def _split(lines: list[str]) -> list[list[list[str]]] | None:
    """The tables printed one after the other (each padded to its own columns, so a new header starts its fields
    elsewhere), or None when a part is no table."""
    runs: list[list[str]] = []
    for line in lines:
        if runs and _starts(runs[-1][-1]) == _starts(line):
            runs[-1].append(line)
        else:
            runs.append([line])
    tables = [_rows(run) for run in runs]
    return None if any(rows is None or _merged(rows) for rows in tables) else tables


def _markdown(rows: list[list[str]]) -> str:
    cell = lambda value: value.replace("\\", "\\\\").replace("|", "\\|") or " "  # noqa: E731
    out = ["| " + " | ".join(cell(value) for value in rows[0]) + " |", "|" + "---|" * len(rows[0])]
    out += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows[1:]]
    return "\n".join(out)


def text_table_to_markdown(text: str) -> str | None:
    """The Markdown table for a printed table (a header line, then rows), or None when `text` is not one.

    Tables printed back to back (`views.table` twice in one cell) become one Markdown table each."""
    lines = [line.rstrip() for line in text.rstrip("\n").split("\n")]
    if any(not line.strip() or line[0] == " " or "\t" in line for line in lines):
        return None
    rows = _rows(lines)
    if rows is None:
        return None
    tables = _split(lines) if _merged(rows) else [rows]
    return "\n\n".join(_markdown(table) for table in tables) if tables else None
