"""What every lesson prints the same way: translated facts, plain-text tables, and a task's real source."""
from __future__ import annotations

import ast
import inspect
import textwrap

from celerylab import localized
from celerylab.i18n import t


def shown(value) -> str:
    """A value as the notebook's reader writes it: booleans in words (``sim``/``não`` in Portuguese),
    floats with the reader's decimal mark; anything else as ``str()`` gives it."""
    if isinstance(value, bool):
        return t(f"views.bool.{str(value).lower()}")
    if isinstance(value, float):
        return localized.number(value)
    return str(value)


def facts(prefix: str, **values) -> None:
    """One translated line per fact, ``label: value``; labels are the keys ``<prefix>.fact.<name>``."""
    for name, value in values.items():
        print(f"{t(f'{prefix}.fact.{name}')}: {shown(value)}")


def table(prefix: str, rows: list[dict], columns: list[str], translated: tuple[str, ...] = ()) -> None:
    """A plain-text table: headers ``<prefix>.col.<column>``, values of `translated` columns ``<prefix>.<column>.<value>``."""
    headers = [t(f"{prefix}.col.{column}") for column in columns]
    cells = [[t(f"{prefix}.{column}.{row[column]}") if column in translated else shown(row[column])
              for column in columns] for row in rows]
    widths = [max(len(header), *(len(cell[i]) for cell in cells)) for i, header in enumerate(headers)]
    for line in [headers, *cells]:
        print("  ".join(value.ljust(width) for value, width in zip(line, widths)).rstrip())


def source(function) -> None:
    """Print the real source of a function or task (without its docstring), as the processes run it."""
    target = getattr(function, "run", function)
    text = textwrap.dedent(inspect.getsource(getattr(target, "__wrapped__", target)))
    body = ast.parse(text).body[0].body
    lines = text.rstrip().splitlines()
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
        del lines[body[0].lineno - 1:body[0].end_lineno]
    print("\n".join(lines))
