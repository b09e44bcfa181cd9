"""Whether an exercise's given tasks are as given: the source of a registered task, read in the worker, against the stub's."""
from __future__ import annotations

import ast
import inspect
import re
import textwrap
from pathlib import Path

from celery import shared_task


def task_name(decorator: ast.expr) -> str | None:
    """The `name=` a task decorator call gives (``@app.task(name="ex.welcome")``), else None."""
    if not isinstance(decorator, ast.Call):
        return None
    given = [keyword.value for keyword in decorator.keywords if keyword.arg == "name"]
    value = given[0].value if given and isinstance(given[0], ast.Constant) else None
    return value if isinstance(value, str) else None


def shape(source: str | None, name: str) -> str | None:
    """The syntax of the function `source` defines as task `name`: its arguments, its body (no docstring) and its
    decorators' arguments in any order; the app a decorator is reached through (``app.task``) and the layout left out.
    None when no such function is there. A cell magic line (``%%writefile``) is not Python: left out."""
    lines = [line for line in (source or "").splitlines() if not line.startswith("%")]
    try:
        tree = ast.parse(textwrap.dedent("\n".join(lines)))
    except SyntaxError:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and any(task_name(call) == name for call in node.decorator_list):
            body = node.body[1:] if ast.get_docstring(node) is not None else node.body
            decorators = [([ast.dump(arg) for arg in call.args], sorted(ast.dump(keyword) for keyword in call.keywords))
                          if isinstance(call, ast.Call) else ast.dump(call) for call in node.decorator_list]
            return repr((ast.dump(node.args), [ast.dump(line) for line in body], decorators))
    return None


def answer_cell(lesson: Path, exercise: str) -> str:
    """The answer cell of `exercise` as lesson.md writes it (solution and stub both: the given tasks sit outside them)."""
    cell = re.search(r'^\+\+\+ \{[^\n]*"exercise": "' + re.escape(exercise) + r'"[^\n]*\}\n```python\n(.*?)^```',
                     lesson.read_text(encoding="utf-8"), re.S | re.M)
    return cell[1] if cell else ""


def changed(stub: str, sources: dict[str, str | None]) -> list[str]:
    """The tasks of `sources` ({name: the registered function's source}) not as the stub defines them."""
    return sorted(name for name, source in sources.items()
                  if shape(source, name) is None or shape(source, name) != shape(stub, name))


@shared_task(bind=True, name="l03.task_source")
def task_source(self, name: str) -> str | None:
    """The source of the function registered as `name` in the worker (its decorators included), else None."""
    task = self.app.tasks.get(name)
    function = getattr(task, "__wrapped__", None)
    try:
        return inspect.getsource(function) if function is not None else None
    except (OSError, TypeError):
        return None
