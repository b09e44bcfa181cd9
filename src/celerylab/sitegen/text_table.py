"""Recognise a printed fixed-width table (columns padded, two spaces apart) and turn it into a Markdown table."""
from __future__ import annotations

MIN_GUTTER = 2


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


def text_table_to_markdown(text: str) -> str | None:
    """The Markdown table for a printed table (a header line, then rows), or None when `text` is not one."""
    lines = [line.rstrip() for line in text.rstrip("\n").split("\n")]
    if len(lines) < 2 or any(not line.strip() or line[0] == " " or "\t" in line for line in lines):
        return None
    spans = _columns(lines)
    rows = [[line[a:b].strip() for a, b in spans] for line in lines]
    if len(spans) < 2 or not all(rows[0]) or any(not row[0] for row in rows):
        return None
    cell = lambda value: value.replace("\\", "\\\\").replace("|", "\\|") or " "  # noqa: E731
    out = ["| " + " | ".join(cell(value) for value in rows[0]) + " |", "|" + "---|" * len(spans)]
    out += ["| " + " | ".join(cell(value) for value in row) + " |" for row in rows[1:]]
    return "\n".join(out)
