"""Delays written at the project's call sites: `.apply_async(countdown=86400)`, `eta=now() + timedelta(hours=24)`."""
from __future__ import annotations

import ast
import os
from datetime import timedelta

from celerylab.audit.usages import Usage, call_name, parsed

DELAYED_CALLS = {"apply_async", "send_task", "apply_async_on_commit", "retry", "set", "signature", "s"}


def seconds(node) -> float | None:
    """The seconds a literal number or a literal `timedelta(...)` stands for; for `x + timedelta(...)`, the delta's."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Call) and call_name(node) == "timedelta":
        try:
            return timedelta(*[ast.literal_eval(a) for a in node.args],
                             **{k.arg: ast.literal_eval(k.value) for k in node.keywords if k.arg}).total_seconds()
        except (ValueError, TypeError, SyntaxError):
            return None
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return seconds(node.right) if seconds(node.right) is not None else seconds(node.left)
    return None


def delayed_sends(path: str, folder: str = "") -> list[tuple[float, Usage]]:
    """(seconds, call) for each send of the file at `path` whose countdown or eta is written as a literal delay."""
    tree = parsed(path)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_name(node) in DELAYED_CALLS:
            for keyword in node.keywords:
                delay = seconds(keyword.value) if keyword.arg in ("countdown", "eta") else None
                if delay is not None:
                    found.append((delay, Usage(os.path.relpath(path, folder or None), node.lineno,
                                               ast.unparse(node)[:80])))
    return sorted(found, key=lambda pair: pair[1].line)
