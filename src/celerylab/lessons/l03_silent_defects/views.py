"""How lesson 03 prints what it measured: translated facts and plain-text tables."""
from __future__ import annotations

from celerylab import localized, notebook_views
from celerylab.i18n import t


def report(**facts) -> None:
    """Print one translated line per fact: ``label: value`` (the value in the page's language)."""
    for name, value in facts.items():
        value = t("l03.where." + value) if name == "message" else localized.value("l03", value)
        print(f"{t('l03.fact.' + name)}: {value}")


def table(rows: list[dict], columns: list[str]) -> None:
    notebook_views.table("l03", [{column: localized.value("l03", row[column]) for column in columns} for row in rows],
                         columns)


def failed_at_delay(error) -> str:
    """What the caller saw when `.delay()` itself raised."""
    return t("l03.outcome.failed_at_delay", error=error)


def outcome(result) -> str:
    """A task's state, with the exception's class when it failed."""
    return f"FAILURE {type(result.result).__name__}" if result.state == "FAILURE" else result.state


def lines(text_lines: list[str]) -> None:
    """Print log lines as they are (the worker's own words)."""
    print("\n".join(text_lines))
