"""A task that returns a set: it runs to the end, then its result has to be serialized for the backend."""
from dataclasses import dataclass

from celerylab.lessons.l03_silent_defects import helpers, tasks


@dataclass
class SetResult:
    state: str
    result: object     # what the backend stored
    logged: list[str]  # the worker's "raised unexpected" line


def set_result(worker, kind: str = "set") -> SetResult:
    offset = worker.log_offset()
    result = tasks.returns.delay(kind)
    result.get(timeout=10, propagate=False)
    return SetResult(result.state, result.result, helpers.log_after(worker, r"raised unexpected: EncodeError", offset))
