"""Rule on task modules nothing imports: the tasks in them are never registered by a worker of this app."""
from __future__ import annotations

import os
import sys

from celerylab.audit.model import Hit
from celerylab.audit.reach import parsed_sources, project_files, referenced, unreached
from celerylab.audit.registry import rule
from celerylab.audit.rules.registration import annotation_maps, label, route_maps
from celerylab.audit.scan import call_site_files


def app_module_name(view) -> str | None:
    """The module `-A` named (for `pkg.module.attr`, `pkg.module`); for the default app, its configuration module."""
    from celerylab.audit.loader import DEFAULT_SPECS, config_module_name

    if view.loaded.spec in DEFAULT_SPECS:
        name = config_module_name()
        return name if name in sys.modules else None
    name = view.loaded.spec.partition(":")[0]
    while name and name not in sys.modules:
        name = name.rpartition(".")[0]
    return name or None


def configured_names(view) -> set[str]:
    """The task names the app's configuration names: Beat entries, routes and annotations."""
    names = {spec.get("task") for spec in (view.conf.beat_schedule or {}).values() if isinstance(spec, dict)}
    names |= {label(pattern) for routes in route_maps(view) for pattern in routes}
    names |= {str(pattern) for mapping in annotation_maps(view) for pattern in mapping}
    return {name for name in names if name}


@rule("CL114", "task-module-not-imported", "high", "defect")
def task_module_not_imported(view):
    spec_module = app_module_name(view)
    if spec_module is None:
        return
    forgotten = unreached(spec_module, view.loaded.folder)
    if not forgotten:
        return
    loaded = module_names()
    trees = parsed_sources(project_files(spec_module) + [(loaded.get(os.path.realpath(path), ""), path)
                                                         for path in call_site_files(view)])
    configured = configured_names(view)
    for found in forgotten:
        sent = referenced(found, trees, configured)  # else a dead module, or one sent from outside the project
        yield Hit(found.module, {"module": found.module, "tasks": ", ".join(found.tasks)}, unknown=not sent,
                  message="message" if sent else "unreferenced", file=found.file, line=found.line)


def module_names() -> dict[str, str]:
    """The dotted name of each loaded module, by its file's real path (a file only --scan reads has none)."""
    files = {name: getattr(module, "__file__", None) for name, module in list(sys.modules.items())}
    return {os.path.realpath(file): name for name, file in files.items() if isinstance(file, str)}
