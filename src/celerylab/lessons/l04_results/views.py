"""How lesson 04 shows what it measured: translated facts, tables, real source code, a live progress bar."""
from __future__ import annotations

from celerylab import notebook_views
from celerylab.i18n import t


def report(**facts) -> None:
    notebook_views.facts("l04", **facts)


def table(rows: list[dict], columns: list[str], translated: tuple[str, ...] = ("situation",)) -> None:
    notebook_views.table("l04", rows, columns, translated)


def show(function) -> None:
    notebook_views.source(function)


def plot_views(samples: list[tuple[float, str, str]]):
    """Two step lines over time: what GET /tasks/{id} answered and what the job's row said."""
    import matplotlib.pyplot as plt

    levels = {"backend": ["PENDING", "STARTED", "SUCCESS"], "row": ["queued", "running", "done"]}
    seconds = [s[0] for s in samples]
    figure, axes = plt.subplots(2, 1, figsize=(8, 3.6), sharex=True)
    for axis, (name, labels), column, color in zip(axes, levels.items(), (1, 2), ("tab:red", "tab:blue")):
        axis.step(seconds, [labels.index(s[column]) for s in samples], where="post", color=color, linewidth=2)
        axis.set_yticks(range(len(labels)), labels)
        axis.set_ylim(-0.5, len(labels) - 0.5)
        axis.set_title(t(f"l04.plot.{name}"), fontsize=10, loc="left")
    axes[-1].set_xlabel(t("l04.plot.seconds"))
    figure.tight_layout()
    return figure
