"""How lesson 03 prints what it measured: translated facts and plain-text tables."""
from __future__ import annotations

from celerylab import notebook_views
from celerylab.i18n import t


def report(**facts) -> None:
    """Print one translated line per fact: ``label: value``."""
    for name, value in facts.items():
        if name == "message":
            value = t("l03.where." + value)
        print(f"{t('l03.fact.' + name)}: {value}")


def table(rows: list[dict], columns: list[str]) -> None:
    notebook_views.table("l03", rows, columns)


def lines(text_lines: list[str]) -> None:
    """Print log lines as they are (the worker's own words)."""
    print("\n".join(text_lines))
