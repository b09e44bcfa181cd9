"""The message keys a lesson's Python files use: literal (or literal-prefixed) keys given to t() and expect()."""
from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from celerylab.authoring.catalogs import LESSON_KEY, Catalog
from celerylab.authoring.problems import Problem


@dataclass(frozen=True)
class KeyUse:
    """A key (or, for f-strings and `"l01.fact." + name`, a key prefix) used at path:line."""

    path: Path
    line: int
    text: str
    prefix: bool


def _key(node: ast.AST) -> tuple[str, bool] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value, False
    if isinstance(node, ast.JoinedStr) and node.values and isinstance(node.values[0], ast.Constant):
        return str(node.values[0].value), True
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _key(node.left)
        return (left[0], True) if left else None
    return None


def uses(path: Path) -> list[KeyUse]:
    """Keys passed first to t(...) / x.t(...) (any key) and to run.expect(...) (lesson keys only)."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8"))
    except SyntaxError:
        return []
    found = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        if name not in ("t", "expect"):
            continue
        key = _key(node.args[0])
        if key and (name == "t" or LESSON_KEY.match(key[0])):
            found.append(KeyUse(path, node.lineno, key[0], key[1]))
    return found


def lesson_key_problems(folder: Path, catalog: Catalog) -> tuple[list[Problem], int]:
    """(a problem per key missing from the catalogs, how many key uses were checked)."""
    problems, count = [], 0
    for path in sorted(p for p in folder.rglob("*.py") if "__pycache__" not in p.parts):
        for use in uses(path):
            count += 1
            if use.prefix and not catalog.has_prefix(use.text):
                problems.append(Problem(path, use.line, "dev.p.no_key_prefix", {"prefix": use.text}))
            elif not use.prefix and use.text not in catalog:
                problems.append(Problem(path, use.line, "dev.p.no_key", {"name": use.text}))
    return problems, count
