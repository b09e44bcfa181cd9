"""The setting names the project's own code reads (`settings.X`, `config["X"]`, `.get("X")`, `getattr(o, "X")`, and
a module variable read by name, as a settings module uses its own constant: `"schedule": CELERY_EXPORT_CHECK`)."""
from __future__ import annotations

import ast

from celerylab.audit.usages import call_name, parsed

LOOKUPS = {"get", "getattr", "hasattr", "getenv", "setdefault", "pop", "get_setting"}


def is_text(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def read_names(tree) -> set[str]:
    """Names the module reads as an attribute, a subscript or a lookup call; a dict's keys and the names it assigns
    are writes, not reads."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            found.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            found.add(node.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and is_text(node.slice):
            found.add(str(getattr(node.slice, "value", "")))
        elif isinstance(node, ast.Call) and call_name(node) in LOOKUPS:
            found |= {str(getattr(arg, "value", "")) for arg in node.args[:2] if is_text(arg)}
    return found


def project_reads(view) -> set[str]:
    """Every name read in the files the audit reads for call sites (the loaded modules, then --scan's)."""
    from celerylab.audit.scan import call_site_files

    names: set[str] = set()
    for path in call_site_files(view):
        tree = parsed(path)
        if tree is not None:
            names |= read_names(tree)
    return names


def spelled(view, key: str) -> set[str]:
    """`key` as the project's code may read it: as Celery names it, and under the app's namespace (CELERY_X)."""
    return {key, f"{view.app.namespace}_{key.upper()}"} if view.app.namespace else {key}
