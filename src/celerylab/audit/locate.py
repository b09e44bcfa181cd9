"""Where in the user's files a finding points: its own position, its task's decorator, the key it names, the app's creation."""
from __future__ import annotations

import ast

from celerylab.audit.app_origin import app_module_files, app_origin, relative
from celerylab.audit.comments import task_of
from celerylab.audit.model import Hit
from celerylab.audit.usages import parsed


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


def docstrings(tree) -> set[int]:
    return {id(node.body[0].value) for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef, ast.AsyncFunctionDef))
            and node.body and isinstance(node.body[0], ast.Expr)}


def line_of(node) -> int | None:
    return getattr(node, "lineno", None) or (getattr(node, "value", None) and getattr(node.value, "lineno", None))


def naming(tree, wanted: set[str]) -> list:
    """The nodes of `tree` naming one of `wanted` (case-insensitive; docstrings left out)."""
    skip = docstrings(tree)
    return [node for node in ast.walk(tree)
            if id(node) not in skip and any(name.lower() in wanted for name in names_in(node))]


def values_of(tree, wanted: set[str]) -> list:
    """The values given to a setting named in `wanted`: `x = v`, `conf.x = v`, `x=v` in a call, `{"x": v}`."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if node.value is not None and any(name.lower() in wanted for t in targets for name in names_in(t)):
                found.append(node.value)
        elif isinstance(node, ast.keyword) and node.arg and node.arg.lower() in wanted:
            found.append(node.value)
        elif isinstance(node, ast.Dict):
            found += [value for key, value in zip(node.keys, node.values)
                      if key is not None and any(name.lower() in wanted for name in names_in(key))]
    return found


def first_line(files, wanted: set[str], within: set[str] | None = None) -> tuple[str, int] | None:
    """The first file (in order) and line where code names one of `wanted`; with `within`, only inside the
    value given to a setting named in `within` (a route's own key, not the same string elsewhere)."""
    wanted = {name.lower() for name in wanted}
    within = {name.lower() for name in within} if within else None
    for path in files:
        tree = parsed(path)
        if tree is None:
            continue
        scopes = values_of(tree, within) if within else [tree]
        lines = [line_of(node) for scope in scopes for node in naming(scope, wanted)]
        lines = [line for line in lines if line]
        if lines:
            return path, min(lines)
    return None


def spellings(view, name: str) -> set[str]:
    """A setting as the source may write it: as is, and under the app's namespace (CELERY_TASK_ROUTES)."""
    return {name, f"{view.app.namespace}_{name}"} if view.app.namespace else {name}


def anchor_of(view, hit: Hit) -> tuple[str, ...]:
    if hit.anchor:
        return hit.anchor
    if hit.subject in (view.conf.beat_schedule or {}):
        return ("beat_schedule", hit.subject)
    return ()


def locate(view, hit: Hit) -> tuple[str | None, int | None]:
    """(file relative to the audit's folder, line) for `hit`; the line creating the app when nothing names it."""
    if hit.file:
        return hit.file, hit.line
    task = task_of(view, hit.subject)
    if task is not None:
        declared = view.declared(task)
        if declared.file:
            return relative(view, declared.file), declared.line
    files = app_module_files(view)
    anchor = anchor_of(view, hit)
    found = first_line(files, {anchor[-1]}, spellings(view, anchor[0])) if len(anchor) == 2 else None
    if not found and hit.subject:
        found = first_line(files, spellings(view, hit.subject))
    if not found:
        found = app_origin(view)
    return (relative(view, found[0]), found[1]) if found else (None, None)
