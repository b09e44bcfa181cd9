"""Rule on task modules nothing imports: the tasks in them are never registered by a worker of this app."""
from __future__ import annotations

from celerylab.audit.model import Hit
from celerylab.audit.reach import unreached
from celerylab.audit.registry import rule


def app_module_name(view) -> str | None:
    """The module `-A` named (for `pkg.module.attr`, `pkg.module`); for the default app, its configuration module."""
    import sys

    from celerylab.audit.loader import DEFAULT_SPECS, config_module_name

    if view.loaded.spec in DEFAULT_SPECS:
        name = config_module_name()
        return name if name in sys.modules else None
    name = view.loaded.spec.partition(":")[0]
    while name and name not in sys.modules:
        name = name.rpartition(".")[0]
    return name or None
@rule("CL114", "task-module-not-imported", "high", "defect")
def task_module_not_imported(view):
    spec_module = app_module_name(view)
    if spec_module is None:
        return
    for found in unreached(spec_module, view.loaded.folder):
        yield Hit(found.module, {"module": found.module, "tasks": ", ".join(found.tasks)},
                  file=found.file, line=found.line)
