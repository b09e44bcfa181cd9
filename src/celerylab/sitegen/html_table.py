"""Turn an HTML output holding one simple table (a pandas DataFrame, say) into a Markdown table."""
from __future__ import annotations

import html
from html.parser import HTMLParser

# Tags whose text is never table content.
SKIPPED = {"style", "script"}


class _TableParser(HTMLParser):
    """Collects the rows of every <table>, remembering which rows sit in <thead>."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tables: list[list[tuple[bool, list[str]]]] = []
        self.outside_text: list[str] = []
        self._depth = 0
        self._in_head = False
        self._row: list[str] | None = None
        self._cell: list[str] | None = None
        self._row_is_head = False
        self._skip = 0
        self._span = 1

    def handle_starttag(self, tag: str, attrs: list) -> None:
        if tag in SKIPPED:
            self._skip += 1
        elif tag == "table":
            self._depth += 1
            if self._depth == 1:
                self.tables.append([])
        elif self._depth == 1 and tag == "thead":
            self._in_head = True
        elif self._depth == 1 and tag == "tr":
            self._row, self._row_is_head = [], self._in_head
        elif self._depth == 1 and tag in ("td", "th") and self._row is not None:
            self._cell = []
            self._span = int(dict(attrs).get("colspan") or 1)
            if tag == "td":
                self._row_is_head = self._in_head
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag: str) -> None:
        if tag in SKIPPED:
            self._skip = max(0, self._skip - 1)
        elif tag == "table":
            self._depth -= 1
        elif self._depth == 1 and tag == "thead":
            self._in_head = False
        elif self._depth == 1 and tag in ("td", "th") and self._cell is not None and self._row is not None:
            text = " ".join("".join(self._cell).split())
            self._row.extend([text] + [""] * (self._span - 1))
            self._cell = None
        elif self._depth == 1 and tag == "tr" and self._row is not None:
            self.tables[-1].append((self._row_is_head, self._row))
            self._row = None

    def handle_data(self, data: str) -> None:
        if self._skip:
            return
        if self._cell is not None:
            self._cell.append(data)
        elif self._depth == 0:
            self.outside_text.append(data)


def _escape(text: str) -> str:
    """A cell's text as Markdown shows it literally: the parser decoded `&lt;id&gt;` to `<id>`, which Markdown would
    pass on as an unknown HTML element (lesson 04's `GET /tasks/<id>` header read `GET /tasks/`)."""
    return html.escape(text, quote=False).replace("\\", "\\\\").replace("|", "\\|") or " "


def html_table_to_markdown(html: str) -> str | None:
    """The Markdown table for `html`, or None when it is not exactly one table with nothing else around it."""
    parser = _TableParser()
    parser.feed(html)
    parser.close()
    if len(parser.tables) != 1 or "".join(parser.outside_text).strip() or not parser.tables[0]:
        return None
    rows = parser.tables[0]
    head = [cells for is_head, cells in rows if is_head]
    body = [cells for is_head, cells in rows if not is_head]
    if not head:
        head, body = [body[0]], body[1:]
    width = max(len(cells) for cells in head + body)
    padded_head = [cells + [""] * (width - len(cells)) for cells in head]
    header = [" ".join(part for part in column if part) for column in zip(*padded_head)]
    lines = ["| " + " | ".join(_escape(cell) for cell in header) + " |",
             "|" + "---|" * width]
    for cells in body:
        cells = cells + [""] * (width - len(cells))
        lines.append("| " + " | ".join(_escape(cell) for cell in cells) + " |")
    return "\n".join(lines)
