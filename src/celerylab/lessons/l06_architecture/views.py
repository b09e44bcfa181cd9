"""How lesson 06 shows what it measured: translated facts and tables, the short tasks' waits per prefetch case."""
from __future__ import annotations

from celerylab import notebook_views
from celerylab.i18n import t


def report(**facts) -> None:
    notebook_views.facts("l06", **facts)


def table(rows: list[dict], columns: list[str], translated: tuple[str, ...] = ()) -> None:
    notebook_views.table("l06", rows, columns, translated)


def plot_waits(measured: dict, long: float):
    """One group of bars per case: each short task's wait, in send order; a dashed line at the long task's length."""
    import matplotlib.pyplot as plt
    from matplotlib.lines import Line2D
    from matplotlib.patches import Patch

    figure, axes = plt.subplots(figsize=(8, 3.6), layout="constrained")
    width = 0.8 / max(len(m.waits) for m in measured.values())
    for x, (case, run) in enumerate(measured.items()):
        for i, wait in sorted(run.waits.items()):
            axes.bar(x - 0.4 + width * (i + 0.5), wait, width * 0.9, color="tab:red" if wait > long / 2 else "tab:blue")
    axes.axhline(long, color="gray", linestyle="--", linewidth=1)
    axes.set_xticks(range(len(measured)), [t(f"l06.case.{case}") for case in measured], fontsize=8)
    axes.set_ylabel(t("l06.plot.wait"))
    axes.set_title(t("l06.plot.title"), fontsize=10, loc="left")
    figure.legend(handles=[Patch(color="tab:blue", label=t("l06.plot.legend_short")),
                           Patch(color="tab:red", label=t("l06.plot.legend_behind")),
                           Line2D([], [], color="gray", linestyle="--", label=t("l06.plot.legend_long"))],
                  loc="outside lower center", ncols=3, fontsize=8, frameon=False)
    return figure
