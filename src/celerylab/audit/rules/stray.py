"""Rule on Celery settings written as module variables that nothing loads into app.conf."""
from __future__ import annotations

import ast
import os

from celery.app.defaults import _OLD_SETTING_KEYS, SETTING_KEYS

from celerylab.audit import project_settings as known
from celerylab.audit.app_origin import app_origin
from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.usages import module_files, parsed


def setting_named(name: str, app_module: bool) -> str | None:
    """The Celery setting a module variable's name means (`CELERY_BEAT_SCHEDULE` -> beat_schedule); lowercase
    names count only beside the app (`beat_schedule = {...}` in its module)."""
    if name in _OLD_SETTING_KEYS:
        return known.new_name(name)
    if name.isupper() and (known.unprefixed(name) or name.startswith("BROKER_") and name.lower() in SETTING_KEYS):
        return known.unprefixed(name) or name.lower()
    return name if app_module and name in SETTING_KEYS else None


def read_names(files) -> set[str]:
    """Every name some user module reads or imports (a variable passed on to conf.update counts as read)."""
    names: set[str] = set()
    for path in files:
        tree = parsed(path)
        for node in ast.walk(tree) if tree is not None else ():
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                names.add(node.id)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
                names.add(node.attr)
            elif isinstance(node, ast.ImportFrom):
                names |= {alias.name for alias in node.names}
    return names


@rule("CL117", "setting-never-loaded", "high", "defect")
def setting_never_loaded(view):
    files = module_files(view.user_modules)
    # what config_from_object read, and what conf.update was given, under their own names (CL101 judges those)
    loaded = set(known.raw_source_keys(view.app)) | set(view.conf.changes)
    origin = app_origin(view)
    read = None
    for path in files:
        tree = parsed(path)
        if tree is None:
            continue
        for node in tree.body:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target] \
                if isinstance(node, ast.AnnAssign) and node.value is not None else []
            for target in targets:
                name = target.id if isinstance(target, ast.Name) else None
                setting = setting_named(name, bool(origin) and origin[0] == path) if name else None
                if not setting or name in loaded:
                    continue
                read = read_names(files) if read is None else read
                if name in read:
                    continue
                shown = os.path.relpath(path, view.loaded.folder or None)
                yield Hit(f"{shown}:{name}", {"name": name, "setting": setting, "file": shown},
                          file=shown, line=node.lineno)
