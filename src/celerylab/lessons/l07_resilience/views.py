"""How lesson 07 shows what it measured: translated facts and tables, worker log lines, a memory plot."""
from __future__ import annotations

from celerylab import notebook_views
from celerylab.i18n import t


def report(**facts) -> None:
    notebook_views.facts("l07", **facts)


def table(rows: list[dict], columns: list[str], translated: tuple[str, ...] = ()) -> None:
    notebook_views.table("l07", rows, columns, translated)


def source(function) -> None:
    notebook_views.source(function)


def log(lines: list[str], limit: int = 12) -> None:
    """Worker log lines, one each, at most `limit`."""
    print("\n".join(lines[:limit]))


def plot_growth(cases: dict[str, dict]):
    """The worker's resident memory over the tasks, one line per configuration."""
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(7, 3.2))
    for name, run in cases.items():
        axes.plot(range(1, len(run["growth"]) + 1), run["growth"], marker="o", label=name)
    axes.set_xlabel(t("l07.plot.tasks"))
    axes.set_ylabel(t("l07.plot.growth"))
    axes.legend(fontsize=8)
    axes.grid(alpha=0.3)
    figure.tight_layout()
    return figure
