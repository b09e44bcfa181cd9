"""Rules on what a task's own code does with Celery's exceptions: a soft limit swallowed, an except that never runs."""
from __future__ import annotations

import ast
import builtins
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


# A Django manager's query methods, and a row's own writes: one statement each, sent to the database and back.
QUERIES = {"get", "filter", "exclude", "first", "last", "exists", "count", "delete", "update", "all", "values",
           "values_list", "only", "defer", "select_related", "prefetch_related", "order_by", "get_or_create",
           "update_or_create", "create", "latest", "earliest", "in_bulk", "aggregate", "annotate", "using"}
ROW_WRITES = {"save", "delete", "refresh_from_db"}
BUILTINS = set(dir(builtins))


def through_manager(node) -> bool:
    """`Model.objects.filter(...).delete()`: a call chain that starts at a Django manager (`.objects`)."""
    while isinstance(node, (ast.Attribute, ast.Call)):
        if isinstance(node, ast.Attribute) and node.attr == "objects":
            return True
        node = node.value if isinstance(node, ast.Attribute) else node.func
    return False


def single_query(call: ast.Call) -> bool:
    target = call.func
    if isinstance(target, ast.Name):
        return target.id in BUILTINS
    if not isinstance(target, ast.Attribute):
        return False
    return (target.attr in QUERIES and through_manager(target.value)) or target.attr in ROW_WRITES


def only_queries(statements) -> bool:
    """A `try` body that runs no loop and calls nothing but single database queries and row writes (a lookup at the
    task's start, a final `save()`): a soft limit lands there only by a fluke of timing, and the claim that the task
    goes on past its limit would not hold for the task's work."""
    for statement in statements:
        for node in ast.walk(statement):
            if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith, ast.Await)):
                return False
            if isinstance(node, ast.Call) and not single_query(node):
                return False
    return True


@rule("CL205", "soft-limit-swallowed", "high", "defect")
def soft_limit_swallowed(view):
    """A broad `except` without `raise` around the task's work, where a soft limit fires: a `try` holding a loop or
    calls other than single database queries (one around a lookup is no place a soft limit can be expected)."""
    for name, task in view.user_tasks.items():
        soft = view.time_limits(task)[1]
        if not soft:
            continue
        code = body(task)
        if code is None:
            continue
        for node in ast.walk(code.node):
            if not isinstance(node, ast.Try) or only_queries(node.body):
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
