"""How lesson 03 prints what it measured: translated facts and plain-text tables."""
from __future__ import annotations

from celerylab.i18n import t


def report(**facts) -> None:
    """Print one translated line per fact: ``label: value``."""
    for name, value in facts.items():
        if name == "message":
            value = t("l03.where." + value)
        print(f"{t('l03.fact.' + name)}: {value}")


def table(rows: list[dict], columns: list[str]) -> None:
    """A plain-text table with translated headers."""
    headers = [t("l03.col." + c) for c in columns]
    cells = [[str(row[c]) for c in columns] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    for row in cells:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())


def lines(text_lines: list[str]) -> None:
    """Print log lines as they are (the worker's own words)."""
    print("\n".join(text_lines))
