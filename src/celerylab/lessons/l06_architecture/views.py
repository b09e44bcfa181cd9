"""How lesson 06 shows what it measured: translated facts and tables, the short tasks' waits per prefetch case."""
from __future__ import annotations

from celerylab import notebook_views
from celerylab.i18n import t


def report(**facts) -> None:
    notebook_views.facts("l06", **facts)


def table(rows: list[dict], columns: list[str], translated: tuple[str, ...] = ()) -> None:
    notebook_views.table("l06", rows, columns, translated)


def plot_waits(measured: dict[str, dict], long: float):
    """One group of bars per case: each short task's wait, in send order; a dashed line at the long task's length."""
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 3.2))
    width = 0.8 / max(len(m["waits"]) for m in measured.values())
    for x, (case, run) in enumerate(measured.items()):
        for i, wait in sorted(run["waits"].items()):
            axes.bar(x - 0.4 + width * (i + 0.5), wait, width * 0.9, color="tab:red" if wait > long / 2 else "tab:blue")
    axes.axhline(long, color="gray", linestyle="--", linewidth=1)
    axes.set_xticks(range(len(measured)), [t(f"l06.case.{case}") for case in measured], fontsize=8)
    axes.set_ylabel(t("l06.plot.wait"))
    axes.set_title(t("l06.plot.title"), fontsize=10, loc="left")
    figure.tight_layout()
    return figure
