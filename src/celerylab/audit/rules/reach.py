"""Rule on task modules nothing imports: the tasks in them are never registered by a worker of this app."""
from __future__ import annotations

from celerylab.audit.model import Hit
from celerylab.audit.reach import unreached
from celerylab.audit.registry import rule


@rule("CL114", "task-module-not-imported", "high", "defect")
def task_module_not_imported(view):
    spec_module = view.loaded.spec.partition(":")[0]
    for found in unreached(spec_module, view.loaded.folder):
        yield Hit(found.module, {"module": found.module, "tasks": ", ".join(found.tasks)},
                  file=found.file, line=found.line)
