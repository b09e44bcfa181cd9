"""Where the user's modules read a task's result (`.delay(...).get()`, `AsyncResult(id).state`), found in their syntax trees."""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass

SENDS = {"delay", "apply_async", "send_task", "delay_on_commit"}
READS = {"get", "state", "status", "result", "ready", "successful", "failed", "wait", "info", "traceback", "forget",
         "collect"}
RESULT_TYPES = {"AsyncResult", "GroupResult", "ResultSet"}


@dataclass(frozen=True)
class Usage:
    file: str
    line: int
    expression: str


def is_send(node) -> bool:
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in SENDS


def is_result(node) -> bool:
    if isinstance(node, ast.Call):
        target = node.func
        name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
        return name in RESULT_TYPES
    return False


def result_names(tree) -> set[str]:
    """Names assigned from a send or an AsyncResult(...) anywhere in the module (coarse, by name)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and (is_send(node.value) or is_result(node.value)):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
    return names


def result_reads(path: str, folder: str = "") -> list[Usage]:
    """Every read of a result in the file at `path` (named relative to `folder`)."""
    try:
        tree = ast.parse(open(path, encoding="utf-8").read(), path)
    except (OSError, SyntaxError, UnicodeDecodeError, ValueError):
        return []
    names = result_names(tree)
    found: list[Usage] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in READS:
            base = node.value
            if is_send(base) or is_result(base) or (isinstance(base, ast.Name) and base.id in names):
                found.append(Usage(os.path.relpath(path, folder or None), node.lineno, ast.unparse(node)[:80]))
    return sorted(found, key=lambda usage: usage.line)


def module_files(modules) -> list[str]:
    files = []
    for module in modules:
        path = getattr(module, "__file__", None)
        if path and path.endswith(".py") and path not in files:
            files.append(path)
    return files
