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
