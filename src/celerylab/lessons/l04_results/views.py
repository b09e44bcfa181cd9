"""How lesson 04 shows what it measured: translated facts, tables, real source code, a live progress bar."""
from __future__ import annotations

from celerylab import localized, notebook_views
from celerylab.i18n import t


def report(**facts) -> None:
    """One translated line per fact, the value in the page's language (sim/não, decimal comma in Portuguese)."""
    notebook_views.facts("l04", **{name: localized.value("l04", value) for name, value in facts.items()})


def table(rows: list[dict], columns: list[str], translated: tuple[str, ...] = ("situation",)) -> None:
    notebook_views.table("l04", [{column: row[column] if column in translated else localized.value("l04", row[column])
                                  for column in columns} for row in rows], columns, translated)


def show(function) -> None:
    notebook_views.source(function)


class ProgressBar:
    """A text bar that redraws in place in the notebook (one display, updated)."""

    def __init__(self, width: int = 30):
        from IPython.display import Pretty, display

        self.pretty = Pretty
        self.width = width
        self.handle = display(Pretty(self.render(0, 1, "PENDING")), display_id=True)

    def render(self, current: int, total: int, state: str) -> str:
        filled = round(self.width * current / max(total, 1))
        return f"[{'#' * filled}{'.' * (self.width - filled)}] {current}/{total} {state}"

    def update(self, current: int, total: int, state: str) -> None:
        if self.handle is not None:
            self.handle.update(self.pretty(self.render(current, total, state)))


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
