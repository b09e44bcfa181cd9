"""Parse or compile Python robustly: once more in a fresh thread when CPython 3.11's AST recursion count has gone wrong."""
from __future__ import annotations

import ast
import threading
from typing import Any, Callable


def in_fresh_thread(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`call(*args, **kwargs)` in a new thread (its own recursion counters); its result, or its exception."""
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call(*args, **kwargs)
        except BaseException as error:  # handed back to the caller's thread
            outcome["error"] = error

    thread = threading.Thread(target=run, name="celerylab-fresh-parse")
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def robust(call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """`call`, retried once in a fresh thread after CPython's "AST constructor recursion depth mismatch".

    On CPython 3.11 a thread that has caught a RecursionError can fail every later ast.parse or
    compile with that SystemError; a new thread starts with clean counters.
    """
    try:
        return call(*args, **kwargs)
    except SystemError as error:
        if "recursion depth mismatch" not in str(error):
            raise
        return in_fresh_thread(call, *args, **kwargs)


def parse(text: str, *args: Any, **kwargs: Any) -> ast.AST:
    return robust(ast.parse, text, *args, **kwargs)
