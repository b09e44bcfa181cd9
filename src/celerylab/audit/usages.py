"""Where the user's modules read a task's result (`.delay(...).get()`, `AsyncResult(id).state`), found in their syntax trees."""
from __future__ import annotations

import ast
import os
from dataclasses import dataclass

from celerylab.audit.model import Hit

SENDS = {"delay", "apply_async", "send_task", "delay_on_commit"}
READS = {"get", "state", "status", "result", "ready", "successful", "failed", "wait", "info", "traceback", "forget",
         "collect"}
RESULT_TYPES = {"AsyncResult", "GroupResult", "ResultSet"}


@dataclass(frozen=True)
class Usage:
    file: str
    line: int
    expression: str
    # the rule cannot decide from the code alone (a send the transaction's COMMIT follows at once, delayed): reported
    # as undecided with the rule's `last` message
    undecided: bool = False


def parsed(path: str) -> ast.Module | None:
    """The syntax tree of the Python file at `path`; None when it cannot be read or parsed."""
    try:
        with open(path, encoding="utf-8") as handle:
            return ast.parse(handle.read(), path)
    except (OSError, TypeError, SyntaxError, UnicodeDecodeError, ValueError):  # TypeError: no file (None)
        return None


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
    tree = parsed(path)
    if tree is None:
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


TRANSACTIONS = {"atomic", "transaction", "begin", "begin_nested"}
DIRECT_SENDS = {"delay", "apply_async", "send_task"}  # *_on_commit are the fix


def call_name(node) -> str:
    target = node.func if isinstance(node, ast.Call) else node
    return target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")


def sends_in(body) -> list:
    """The direct sends in `body`, not looking into functions defined there (their body runs when called)."""
    found, stack = [], list(body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in DIRECT_SENDS:
            found.append(node)
        stack.extend(ast.iter_child_nodes(node))
    return found


def sends_in_transactions(path: str, folder: str = "") -> list[Usage]:
    """Every `.delay()`/`.apply_async()`/`send_task()` written inside a `with ...atomic()/transaction()/begin()` block
    or an `@atomic` function of the file at `path` (lexically: a transaction opened by a caller is not seen)."""
    tree = parsed(path)
    if tree is None:
        return []
    found: list[Usage] = []
    for node in ast.walk(tree):
        body = None
        if isinstance(node, (ast.With, ast.AsyncWith)) and any(
                isinstance(item.context_expr, ast.Call) and call_name(item.context_expr) in TRANSACTIONS
                for item in node.items):
            body = node.body
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and any(
                call_name(decorator) in TRANSACTIONS for decorator in node.decorator_list):
            body = node.body
        for send in sends_in(body or []):
            found.append(Usage(os.path.relpath(path, folder or None), send.lineno, ast.unparse(send)[:80],
                               undecided=delayed(send) and runs_last(body or [], send)))
    return sorted(set(found), key=lambda usage: usage.line)


def delayed(send) -> bool:
    """The send waits before the worker may run it (`countdown=` or `eta=`): the COMMIT that follows comes first."""
    return any(keyword.arg in ("countdown", "eta") for keyword in send.keywords)


def harmless(statement) -> bool:
    """A statement that writes nothing a transaction could undo: `return`/`pass`, a log line."""
    if isinstance(statement, ast.Pass):
        return True
    if isinstance(statement, ast.Return):
        return statement.value is None or isinstance(statement.value, (ast.Constant, ast.Name))
    if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call):
        target = statement.value.func
        owner = target.value if isinstance(target, ast.Attribute) else None
        return isinstance(owner, ast.Name) and owner.id in ("logging", "logger", "log", "LOGGER", "LOG")
    return False


def runs_last(body, send) -> bool:
    """Nothing that could fail and roll back runs after `send` inside the transaction's `body`: the send is in its
    last statement (through `if` and `with` blocks, never a loop or a `try`), followed only by harmless ones
    (plane's batch tasks, which send their next batch as the block's last act)."""
    for index, statement in enumerate(body):
        if not any(node is send for node in ast.walk(statement)):
            continue
        if not all(harmless(after) for after in body[index + 1:]):
            return False
        if isinstance(statement, ast.If):
            branch = statement.body if any(node is send for each in statement.body for node in ast.walk(each)) \
                else statement.orelse
            return runs_last(branch, send)
        if isinstance(statement, (ast.With, ast.AsyncWith)):
            return runs_last(statement.body, send)
        return isinstance(statement, (ast.Expr, ast.Assign, ast.Return))
    return False


def mentions_started(node) -> bool:
    return (isinstance(node, ast.Constant) and node.value == "STARTED") or \
        (isinstance(node, ast.Attribute) and node.attr == "STARTED")


def started_checks(path: str, folder: str = "") -> list[Usage]:
    """Comparisons of a state with STARTED (`state == "STARTED"`, `in (states.STARTED, ...)`) in the file at `path`."""
    tree = parsed(path)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            operands = [node.left, *node.comparators]
            inner = [each for operand in operands if isinstance(operand, (ast.Tuple, ast.List, ast.Set))
                     for each in operand.elts]
            if any(mentions_started(each) for each in [*operands, *inner]):
                found.append(Usage(os.path.relpath(path, folder or None), node.lineno, ast.unparse(node)[:80]))
    return found


def terminating_revokes(path: str, folder: str = "") -> list[Usage]:
    """Calls of `.revoke(..., terminate=True)` (any receiver: AsyncResult, app.control) in the file at `path`."""
    tree = parsed(path)
    if tree is None:
        return []
    return [Usage(os.path.relpath(path, folder or None), node.lineno, ast.unparse(node)[:80])
            for node in ast.walk(tree)
            if isinstance(node, ast.Call) and call_name(node) == "revoke"
            and any(k.arg == "terminate" and isinstance(k.value, ast.Constant) and k.value.value is True
                    for k in node.keywords)]


def sender(node) -> str | None:
    """`double` for `double.delay(...)` / `double.apply_async(...)` / `double.AsyncResult(...)`."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and \
            node.func.attr in SENDS | {"AsyncResult"} and isinstance(node.func.value, ast.Name):
        return node.func.value.id
    return None


def reads_by_task(path: str, folder: str = "") -> list[tuple[str, Usage]]:
    """(task variable, read) for each result read whose task the code names (`double.delay(2).get()`)."""
    tree = parsed(path)
    if tree is None:
        return []
    assigned: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Assign) and sender(node.value):
            assigned.update({target.id: sender(node.value) for target in node.targets if isinstance(target, ast.Name)})
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in READS:
            base = node.value
            task = sender(base) or (assigned.get(base.id) if isinstance(base, ast.Name) else None)
            if task:
                found.append((task, Usage(os.path.relpath(path, folder or None), node.lineno, ast.unparse(node)[:80])))
    return sorted(found, key=lambda pair: pair[1].line)


QUEUE_CALLS = {"delay", "apply_async", "send_task", "delay_on_commit", "apply_async_on_commit", "set",
               "signature", "subtask"}


def queue_sends(path: str, folder: str = "") -> list[tuple[str, Usage]]:
    """(queue, call) for each send naming a literal queue: `.apply_async(queue="x")`, `send_task(..., queue="x")`,
    `.set(queue="x")`, `signature(..., queue="x")`."""
    tree = parsed(path)
    if tree is None:
        return []
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and call_name(node) in QUEUE_CALLS:
            for keyword in node.keywords:
                if keyword.arg == "queue" and isinstance(keyword.value, ast.Constant) \
                        and isinstance(keyword.value.value, str):
                    found.append((keyword.value.value, Usage(os.path.relpath(path, folder or None), node.lineno,
                                                             ast.unparse(node)[:80])))
    return sorted(found, key=lambda pair: pair[1].line)


UNQUEUED_CALLS = {"delay", "delay_on_commit", "apply_async", "apply_async_on_commit", "s", "si", "signature",
                  "subtask", "map", "starmap", "chunks"}


def default_sends(path: str, receivers: set[str], names: set[str]) -> bool:
    """Whether the file at `path` sends one of `receivers` (a task's variable: `export.delay()`) or `names` (by name:
    `send_task("x")`) without a `queue=` keyword (a `**options` may hold one: counted as a send without)."""
    tree = parsed(path)
    if tree is None:
        return False
    queued = {id(node.func.value) for node in ast.walk(tree)   # `sig.s().set(queue="x")`: the signature has its queue
              if isinstance(node, ast.Call) and call_name(node) == "set"
              and any(keyword.arg == "queue" for keyword in node.keywords) and isinstance(node.func, ast.Attribute)}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call) or id(node) in queued or any(keyword.arg == "queue" for keyword in node.keywords):
            continue
        target = node.func
        if isinstance(target, ast.Attribute) and target.attr in UNQUEUED_CALLS:
            receiver = target.value
            name = receiver.attr if isinstance(receiver, ast.Attribute) else getattr(receiver, "id", "")
            if name in receivers:
                return True
        if call_name(node) in ("send_task", "signature") and node.args and isinstance(node.args[0], ast.Constant) \
                and node.args[0].value in names:
            return True
    return False


def usage_hits(view, find):
    """One finding per place `find(path, folder)` reports in the user's modules (and --scan files), at that file and line."""
    from celerylab.audit.scan import call_site_files

    for path in call_site_files(view):
        for usage in find(path, view.loaded.folder):
            yield Hit(f"{usage.file}:{usage.line}", {"file": usage.file, "line": usage.line,
                                                     "expression": usage.expression},
                      file=usage.file, line=usage.line, unknown=usage.undecided,
                      message="last" if usage.undecided else "message")
