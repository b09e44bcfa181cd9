"""Where the audited app is made: the line of the user's module that binds it (`app = Celery(...)`, `app = make_app()`)."""
from __future__ import annotations

import ast
import os
import sys

from celerylab.audit.loader import config_module_name, is_user_module
from celerylab.audit.usages import parsed


def holders(view) -> list[tuple[object, list[str]]]:
    """(module, the names it binds to the app) for each user module holding the app object itself."""
    found = []
    for module in view.user_modules:
        names = [name for name, value in list(vars(module).items()) if value is view.app]
        if names:
            found.append((module, names))
    return found


def binding_line(tree, names: list[str], made_here: bool) -> int | None:
    """The first line binding one of `names`: an assignment from a call when `made_here`, else also an import."""
    for node in ast.walk(tree):
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(isinstance(t, ast.Name) and t.id in names for t in targets) and isinstance(node.value, ast.Call):
                return node.lineno
        elif not made_here and isinstance(node, ast.ImportFrom):
            if any((alias.asname or alias.name) in names for alias in node.names):
                return node.lineno
    return None


def app_origin(view) -> tuple[str, int] | None:
    """(file, line) where the app is created, else where a module imports it, else the configuration module
    a worker without -A reads (line 1); None when the app is nowhere in the user's files."""
    found = holders(view)
    for made_here in (True, False):
        for module, names in found:
            tree = parsed(getattr(module, "__file__", None))
            line = binding_line(tree, names, made_here) if tree is not None else None
            if line:
                return module.__file__, line
    config = sys.modules.get(config_module_name())
    if config is not None and is_user_module(config) and config in view.user_modules:
        return config.__file__, 1
    return None


def app_module_files(view) -> list[str]:
    """The user's files, the one that creates the app first: settings are most often written there."""
    from celerylab.audit.usages import module_files

    files = module_files(view.user_modules)
    origin = app_origin(view)
    if origin and origin[0] in files:
        files = [origin[0], *[path for path in files if path != origin[0]]]
    return files


def relative(view, path: str) -> str:
    return os.path.relpath(path, view.loaded.folder or None)
