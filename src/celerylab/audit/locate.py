"""Where in the user's files a finding points: its own position, its task's decorator, or the line naming its subject."""
from __future__ import annotations

import ast
import os
import sys

from celerylab.audit.comments import task_of
from celerylab.audit.model import Hit
from celerylab.audit.usages import module_files, parsed


def names_in(node) -> list[str]:
    """The names a node writes or reads: a keyword argument, an attribute, a variable, a string (a dict key)."""
    if isinstance(node, ast.keyword) and node.arg:
        return [node.arg]
    if isinstance(node, ast.Attribute):
        return [node.attr]
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    return []


def first_line(files, wanted: set[str]) -> tuple[str, int] | None:
    """The first file (in order) and line where code names one of `wanted` (case-insensitive; not in docstrings)."""
    wanted = {name.lower() for name in wanted}
    for path in files:
        tree = parsed(path)
        if tree is None:
            continue
        docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                      if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
                      and node.body and isinstance(node.body[0], ast.Expr)}
        lines = [getattr(node, "lineno", None) or getattr(node, "value", None) and node.value.lineno
                 for node in ast.walk(tree)
                 if id(node) not in docstrings and any(name.lower() in wanted for name in names_in(node))]
        lines = [line for line in lines if line]
        if lines:
            return path, min(lines)
    return None


def app_file(view) -> str | None:
    module = sys.modules.get(view.loaded.spec.partition(":")[0])
    return getattr(module, "__file__", None)


def locate(view, hit: Hit) -> tuple[str | None, int | None]:
    """(file relative to the audit's folder, line) for `hit`; the app's module, line 1, when nothing names it."""
    if hit.file:
        return hit.file, hit.line
    relative = (lambda path: os.path.relpath(path, view.loaded.folder or None))
    task = task_of(view, hit.subject)
    if task is not None:
        declared = view.declared(task)
        if declared.file:
            return relative(declared.file), declared.line
    files = module_files(view.user_modules)
    app_module = app_file(view)
    if app_module in files:  # the app's own module first: that is where settings are usually written
        files = [app_module, *[path for path in files if path != app_module]]
    subject = hit.subject
    wanted = {subject, f"{view.app.namespace}_{subject}"} if view.app.namespace else {subject}
    found = first_line(files, wanted) if subject else None
    if found:
        return relative(found[0]), found[1]
    return (relative(app_module), 1) if app_module else (None, None)
