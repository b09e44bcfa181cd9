"""What the source says that the loaded objects no longer can: a task decorator's own keywords, and where a task lives."""
from __future__ import annotations

import ast
import inspect
import textwrap
from dataclasses import dataclass, field

UNREADABLE = object()  # a keyword whose value is not a literal (`name=SETTINGS.X`)
TASK_DECORATORS = {"task", "shared_task", "periodic_task"}


@dataclass(frozen=True)
class Declared:
    """A task's decorator keywords as written (values literal-evaluated where possible), and its position."""

    keywords: dict = field(default_factory=dict)
    file: str | None = None
    line: int | None = None
    readable: bool = False   # False: no source (a class-based task, a function built at run time)


def function_of(task):
    """The function the user wrote: the one the task decorator was given (before Celery's pydantic wrapper), and
    inside the decorators under it (`@transaction.atomic`, a `functools.wraps` helper), whose wrappers live in
    contextlib.py or the helper's file."""
    function = getattr(task, "_decorated_fun", None) or getattr(task, "__wrapped__", None) or getattr(task, "run", None)
    try:
        return inspect.unwrap(function) if function is not None else None
    except ValueError:  # a __wrapped__ cycle: the outermost function is all there is
        return function


def literal(node):
    try:
        return ast.literal_eval(node)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return UNREADABLE


def decorator_keywords(function_node) -> dict | None:
    for decorator in function_node.decorator_list:
        if isinstance(decorator, ast.Call):
            target = decorator.func
            name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
            if name in TASK_DECORATORS:
                return {keyword.arg: literal(keyword.value) for keyword in decorator.keywords if keyword.arg}
        else:
            name = decorator.attr if isinstance(decorator, ast.Attribute) else getattr(decorator, "id", "")
            if name in TASK_DECORATORS:
                return {}
    return None


def _declared(function) -> Declared:
    try:
        lines, start = inspect.getsourcelines(function)
        file = inspect.getsourcefile(function)
        tree = ast.parse(textwrap.dedent("".join(lines)))
    except (OSError, TypeError, SyntaxError, IndentationError):
        return Declared()
    node = next((node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    keywords = decorator_keywords(node) if node else None
    if keywords is None:
        return Declared(file=file, line=start)
    return Declared(keywords, file, start, readable=True)


def declared(task) -> Declared:
    function = function_of(task)
    return _declared(function) if function is not None else Declared()


def parameters(task) -> dict[str, object]:
    """The task function's parameters and their annotations (evaluated; strings where they cannot be)."""
    function = function_of(task)
    try:
        signature = inspect.signature(function, eval_str=True)
    except Exception:
        try:
            signature = inspect.signature(function)
        except Exception:
            return {}
    return {name: p.annotation for name, p in signature.parameters.items()
            if p.annotation is not inspect.Parameter.empty}


@dataclass(frozen=True)
class Body:
    """A task function's syntax tree, with the file and the line its source starts at."""

    node: object
    file: str
    start: int

    def line(self, node) -> int:
        return self.start + node.lineno - 1


def body(task) -> Body | None:
    function = function_of(task)
    try:
        lines, start = inspect.getsourcelines(function)
        tree = ast.parse(textwrap.dedent("".join(lines)))
        file = inspect.getsourcefile(function)
    except (OSError, TypeError, SyntaxError, IndentationError):
        return None
    node = next((node for node in tree.body if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))), None)
    return Body(node, file, start) if node is not None else None


def return_annotation(task):
    """The task function's return annotation (evaluated where it can be), or None."""
    function = function_of(task)
    for options in ({"eval_str": True}, {}):
        try:
            annotation = inspect.signature(function, **options).return_annotation
            return None if annotation is inspect.Signature.empty else annotation
        except Exception:
            continue
    return None
