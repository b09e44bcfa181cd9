"""Rules on names that must match a registered task: Beat entries, routes, annotations; and names derived from paths."""
from __future__ import annotations

import ast
import os
import sys
from difflib import get_close_matches
from fnmatch import fnmatchcase

from celery.utils.functional import maybe_list
from celery.utils.imports import gen_task_name

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.sources import function_of
from celerylab.audit.usages import parsed
from celerylab.i18n import t


def closest(view, name: str) -> str:
    found = get_close_matches(name, sorted(view.tasks), n=1)
    return t("audit.closest", name=found[0]) if found else ""


def registered(view) -> set[str]:
    """What a worker registers: with --live, what the real worker said (plus Celery's built-in tasks, which
    `inspect registered` leaves out); else what the loaded app has."""
    if view.live_registered is None:
        return view.registered
    return view.live_registered | {name for name in view.registered if name.startswith("celery.")}


@rule("CL104", "unregistered-beat-task", "high", "defect")
def unregistered_beat_task(view):
    names = registered(view)
    for entry, spec in sorted((view.conf.beat_schedule or {}).items()):
        task = spec.get("task") if isinstance(spec, dict) else None
        if task and task not in names:
            yield Hit(entry, {"entry": entry, "task": task, "closest": closest(view, task)},
                      anchor=("beat_schedule", entry))


def route_maps(view) -> list[dict]:
    """The dict routes of `task_routes` (a router function computes its answer: nothing to check)."""
    routes = view.conf.task_routes
    if isinstance(routes, dict):
        return [routes]
    return [each for each in (routes or ()) if isinstance(each, dict)]


def matches(pattern, names) -> bool:
    """A route or annotation key against the task names, as Celery matches it (name, glob or compiled regex)."""
    if hasattr(pattern, "match"):
        return any(pattern.match(name) for name in names)
    if "*" in pattern or "?" in pattern or "[" in pattern:
        return any(fnmatchcase(name, pattern) for name in names)
    return pattern in names


def label(pattern) -> str:
    return pattern.pattern if hasattr(pattern, "pattern") else str(pattern)


def meant(view, pattern: str, names: set[str]) -> str | None:
    """The registered task a route that matches none most likely meant, left without a route of its own: one of the
    same function name under another module (a task moved, its route not), or a close spelling (a typo)."""
    routed = {name for name in names if any(matches(each, {name}) for routes in route_maps(view) for each in routes)}
    unrouted = sorted(names - routed)
    last = pattern.rpartition(".")[2]
    same = [name for name in unrouted if "*" not in last and name.rpartition(".")[2] == last]
    found = same or get_close_matches(pattern, unrouted, n=1, cutoff=0.8)
    return found[0] if found else None


@rule("CL105", "unknown-route-task", "medium", "defect")
def unknown_route_task(view):
    """A defect when a registered task without a route is what the route meant (it goes to the default queue);
    undecided when none is: a removed task's stale route, or one of a module not loaded here."""
    names = registered(view)
    for routes in route_maps(view):
        for pattern in routes:
            if not matches(pattern, names):
                target = meant(view, label(pattern), names)
                closest_text = t("audit.closest", name=target) if target else ""
                yield Hit(label(pattern), {"pattern": label(pattern), "closest": closest_text},
                          anchor=("task_routes", label(pattern)), unknown=target is None,
                          message="message" if target else "stale")


def annotation_maps(view) -> list[dict]:
    annotations = view.conf.task_annotations
    if isinstance(annotations, dict):
        return [annotations]
    return [each for each in (annotations or ()) if isinstance(each, dict)]


@rule("CL106", "unknown-annotation-task", "medium", "defect")
def unknown_annotation_task(view):
    for mapping in annotation_maps(view):
        for pattern in mapping:
            if pattern != "*" and pattern not in registered(view):  # annotations match whole names only
                yield Hit(pattern, {"pattern": pattern, "closest": closest(view, pattern)},
                          anchor=("task_annotations", pattern))


@rule("CL103", "annotation-overrides-decorator", "medium", "defect")
def annotation_overrides_decorator(view):
    for name, task in view.tasks.items():
        keywords = view.declared(task).keywords
        for mapping in annotation_maps(view):
            for pattern, options in mapping.items():
                if not isinstance(options, dict) or pattern not in ("*", name):
                    continue
                for option, value in options.items():
                    if option in keywords and keywords[option] != value:
                        yield Hit(name, {"option": option, "declared": repr(keywords[option]),
                                         "pattern": pattern, "effective": repr(getattr(task, option, value))})


@rule("CL109", "task-name-derived", "low", "practice")
def task_name_derived(view):
    """One finding for the app (as CL201), with the count and the list: at the first such task's decorator."""
    derived = []
    for name, task in view.user_tasks.items():
        declared = view.declared(task)
        if declared.readable and "name" not in declared.keywords:
            function = getattr(task, "__wrapped__", None) or task.run
            if name == gen_task_name(view.app, function.__name__, function.__module__):
                derived.append((name, declared))
    if derived:
        name, declared = derived[0]
        shown = os.path.relpath(declared.file, view.loaded.folder or None) if declared.file else None
        yield Hit("name", {"count": len(derived), "tasks": ", ".join(each for each, _ in derived), "task": name},
                  file=shown, line=declared.line)


@rule("CL115", "task-missing-in-worker", "high", "defect")
def task_missing_in_worker(view):
    """--live only: tasks this import registers that the real worker did not (an import that depends on where it runs)."""
    if view.live_registered is None:
        return
    for name in sorted(set(view.tasks) - view.live_registered):
        yield Hit(name, {"task": name})


def imported_by(module) -> set[str]:
    """The modules a module's own source imports (relative imports resolved against its package)."""
    path = getattr(module, "__file__", None)
    tree = parsed(path)
    if tree is None:
        return set()
    package = module.__name__ if hasattr(module, "__path__") else module.__name__.rpartition(".")[0]
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                base = f"{parent}.{base}".rstrip(".")
            names |= {base, *(f"{base}.{alias.name}" for alias in node.names)}
    return names


@rule("CL116", "include-without-tasks", "medium", "defect")
def include_without_tasks(view):
    """A module in include/imports that declares no task and imports none that does (a package named instead of
    its tasks module): importing it registers nothing."""
    modules = {getattr(function_of(task), "__module__", "") or "" for task in view.tasks.values()}
    for setting in ("include", "imports"):
        for name in maybe_list(view.conf.get(setting)) or ():  # as Celery's loader reads it: a string is one module
            if name in modules:
                continue
            below = {module for module in modules if module.startswith(f"{name}.")}
            if below & imported_by(sys.modules.get(name)):
                continue
            yield Hit(f"{setting}:{name}", {"setting": setting, "module": name})
