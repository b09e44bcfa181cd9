"""How lesson 04 shows what it measured: translated facts, tables, real source code, a live progress bar."""
from __future__ import annotations

import ast
import inspect
import textwrap

from celerylab.i18n import t


def report(**facts) -> None:
    """Print one translated line per fact: ``label: value``."""
    for name, value in facts.items():
        print(f"{t('l04.fact.' + name)}: {value}")


def table(rows: list[dict], columns: list[str], translated: tuple[str, ...] = ("situation",)) -> None:
    """A plain-text table with translated headers (and translated values in the `translated` columns)."""
    headers = [t("l04.col." + c) for c in columns]
    cells = [[t(f"l04.{c}.{row[c]}") if c in translated else str(row[c]) for c in columns] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)).rstrip())
    for row in cells:
        print("  ".join(v.ljust(w) for v, w in zip(row, widths)).rstrip())


def show(function) -> None:
    """Print the real source of a function or task (without its docstring), as the processes run it."""
    target = getattr(function, "run", function)
    source = textwrap.dedent(inspect.getsource(getattr(target, "__wrapped__", target)))
    body = ast.parse(source).body[0].body
    lines = source.rstrip().splitlines()
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        del lines[body[0].lineno - 1:body[0].end_lineno]
    print("\n".join(lines))


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
