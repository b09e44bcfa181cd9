"""Rule on sends inside a database transaction: the worker can run the task before the row is committed."""
from __future__ import annotations

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.usages import module_files, sends_in_transactions


@rule("CL307", "send-inside-transaction", "high", "defect")
def send_inside_transaction(view):
    for path in module_files(view.user_modules):
        for usage in sends_in_transactions(path, view.loaded.folder):
            yield Hit(f"{usage.file}:{usage.line}", {"file": usage.file, "line": usage.line,
                                                     "expression": usage.expression},
                      file=usage.file, line=usage.line)
