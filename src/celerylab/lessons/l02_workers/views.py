"""How lesson 02 shows what it measured: translated facts, a small table, the timeline of duplicated runs."""
from __future__ import annotations

from celerylab import localized, notebook_views
from celerylab.i18n import t


def report(**facts) -> None:
    """One translated line per fact, the value in the page's language (decimal comma, sim/não in Portuguese)."""
    notebook_views.facts("l02", **{name: localized.value("l02", value) for name, value in facts.items()})


def table(rows: list[dict], columns: list[str], translated: tuple[str, ...] = ()) -> None:
    """A table; `translated` columns hold catalog keys (``l02.<column>.<value>``), other cells are localized values."""
    notebook_views.table("l02", [{column: row[column] if column in translated else localized.value("l02", row[column])
                                  for column in columns} for row in rows], columns, translated)


def outcome(result) -> str:
    """A task's state, with the exception's class when it failed or is being retried."""
    if result.state in ("FAILURE", "RETRY"):
        return f"{result.state} {type(result.result).__name__}"
    return result.state


def plot_starts(series: dict[str, list[float]], marks: dict[str, float]):
    """One row per task, one dot per start (seconds since it was sent); dashed lines at `marks`."""
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 2.8))
    for row, (label, starts) in enumerate(series.items()):
        axes.scatter(starts, [row] * len(starts), s=60, zorder=3)
        for start in starts:
            axes.plot([start, start + 0.2], [row, row], linewidth=6, alpha=0.4)
    for label, at in marks.items():
        axes.axvline(at, linestyle="--", color="grey", linewidth=1)
        axes.text(at, len(series) - 0.5, label, fontsize=8, color="grey", ha="left")
    axes.set_yticks(range(len(series)), list(series))
    axes.set_ylim(-0.6, len(series) - 0.2)
    axes.set_xlabel(t("l02.plot.seconds"))
    axes.set_title(t("l02.plot.title"))
    figure.tight_layout()
    return figure
