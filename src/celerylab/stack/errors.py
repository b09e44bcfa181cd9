"""Errors the stack raises: one readable message, with the tail of the process log when there is one."""
from __future__ import annotations

from celerylab.i18n import t


class StackError(RuntimeError):
    """A stack could not start or a process misbehaved; str() is a readable, translated message."""

    def __init__(self, key: str, log_tail: str = "", **values: object):
        self.key = key
        self.values = values
        self.log_tail = log_tail
        message = t(key, **values)
        if log_tail:
            message += "\n" + t("stack.log_tail") + "\n" + log_tail
        super().__init__(message)

    def _render_traceback_(self) -> list[str]:
        """IPython shows only the message, not a traceback, for this error."""
        return [f"{type(self).__name__}: {self}"]


class ServiceError(StackError):
    """A service the stack provides (its database, its broker) could not start: the machine's fault, never the
    code a stack runs (a grader counts it as its own failure, not the learner's)."""
