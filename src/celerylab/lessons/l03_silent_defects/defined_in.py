"""A task of the check's, loaded onto the learner's worker (--include): the module that defines a registered task."""
from __future__ import annotations

import os
import sys

from celery import shared_task


def module_of_file(filename: str) -> str:
    """The imported module whose source is `filename` (the file's name when none is): where code was written,
    whatever `__module__` it was given."""
    target = os.path.realpath(filename)
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None)
        if path and os.path.realpath(path) == target:
            return name
    return os.path.basename(filename)


@shared_task(bind=True, name="l03.defined_in")
def defined_in(self, name: str) -> str | None:
    task = self.app.tasks.get(name)
    if task is None:
        return None
    code = getattr(task.run, "__code__", None)  # the file the function was written in, not its __module__ label
    return task.run.__module__ if code is None else module_of_file(code.co_filename)
