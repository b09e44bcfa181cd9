"""Rules on what a task's own code does with Celery's exceptions: a soft limit swallowed, an except that never runs."""
from __future__ import annotations

import ast
import os

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.sources import body

BROAD = {"Exception", "BaseException"}


def names(handler_type) -> set[str]:
    """The exception names an `except` clause lists ({""} for a bare except)."""
    if handler_type is None:
        return {""}
    nodes = handler_type.elts if isinstance(handler_type, ast.Tuple) else [handler_type]
    return {node.attr if isinstance(node, ast.Attribute) else getattr(node, "id", "?") for node in nodes}


def raises(handler) -> bool:
    stack = list(handler.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Raise):
            return True
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            stack.extend(ast.iter_child_nodes(node))
    return False


def shown(view, path: str) -> str:
    return os.path.relpath(path, view.loaded.folder or None)


@rule("CL205", "soft-limit-swallowed", "high", "defect")
def soft_limit_swallowed(view):
    for name, task in view.user_tasks.items():
        soft = view.time_limits(task)[1]
        if not soft:
            continue
        code = body(task)
        if code is None:
            continue
        for node in ast.walk(code.node):
            if not isinstance(node, ast.Try):
                continue
            earlier: set[str] = set()
            for handler in node.handlers:
                caught = names(handler.type)
                if "SoftTimeLimitExceeded" not in earlier and (caught & BROAD or "" in caught) and not raises(handler):
                    line = code.line(handler)
                    yield Hit(f"{name}:{line}", {"task": name, "clause": f"except {ast.unparse(handler.type)}"
                                                 if handler.type else "except", "soft": soft},
                              file=shown(view, code.file), line=line)
                earlier |= caught


def calls_retry_with_exc(statements) -> bool:
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "retry" \
                    and any(keyword.arg == "exc" for keyword in node.keywords):
                return True
    return False


@rule("CL308", "max-retries-except-never-runs", "medium", "defect")
def max_retries_except_never_runs(view):
    for name, task in view.user_tasks.items():
        code = body(task)
        if code is None:
            continue
        for node in ast.walk(code.node):
            if isinstance(node, ast.Try) and calls_retry_with_exc(node.body):
                for handler in node.handlers:
                    if "MaxRetriesExceededError" in names(handler.type):
                        line = code.line(handler)
                        yield Hit(f"{name}:{line}", {"task": name}, file=shown(view, code.file), line=line)
