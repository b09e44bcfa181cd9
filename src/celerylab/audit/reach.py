"""The project's own modules that declare tasks but that loading the app never imported (so no worker registers them)."""
from __future__ import annotations

import ast
import os
import sys
from dataclasses import dataclass

from celerylab.audit.sources import TASK_DECORATORS
from celerylab.audit.usages import parsed

SKIP_DIRS = {"__pycache__", "node_modules", "site-packages", "venv", ".venv", "build", "dist", "migrations"}
MAX_FILES = 2000


@dataclass(frozen=True)
class Unreached:
    module: str
    file: str
    line: int
    tasks: tuple[str, ...]


def is_test_file(name: str) -> bool:
    return name.startswith("test_") or name.endswith("_test.py") or name == "conftest.py"


def is_test_dir(name: str) -> bool:
    """A folder of tests or test fixtures (`tests/`, `_test_plugins/`, `test_data/`): no worker imports it."""
    bare = name.lower().strip("_")
    return bare in ("test", "tests", "testing") or bare.startswith("test_") or bare.endswith(("_test", "_tests"))


def kept_dirs(dirs) -> list[str]:
    """The folders a walk of the project goes into: no tests, fixtures, virtualenvs, build output or hidden ones."""
    return sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith(".") and not is_test_dir(d))


def project_files(spec_module: str) -> list[tuple[str, str]]:
    """(module name, file) of the package holding the app's module (`proj` for `proj.celery`), tests left out.

    The package, not the whole top-level one: in a repository with several apps, another app's task modules
    are not this app's business.
    """
    from celerylab.audit.loader import is_user_module

    if not is_user_module(sys.modules.get(spec_module)):  # `-A celery:current_app`: Celery's package is not the project's
        return []
    package_name = spec_module if hasattr(sys.modules.get(spec_module), "__path__") else spec_module.rpartition(".")[0]
    if not package_name:
        return flat_files(sys.modules[spec_module].__file__)
    package = sys.modules.get(package_name)
    paths = list(getattr(package, "__path__", []) or [])
    found: list[tuple[str, str]] = []
    if paths:
        root = paths[0]
        for folder, dirs, files in os.walk(root):
            dirs[:] = kept_dirs(dirs)
            for name in sorted(files):
                if name.endswith(".py") and not is_test_file(name):
                    path = os.path.join(folder, name)
                    relative = os.path.relpath(path, root)[:-3].replace(os.sep, ".").removesuffix("__init__")
                    found.append((f"{package_name}.{relative}".rstrip("."), path))
            if len(found) > MAX_FILES:
                break
    return found[:MAX_FILES]


def flat_files(app_file: str) -> list[tuple[str, str]]:
    """(module name, file) of the modules beside a top-level app module (`app.py`, `tasks.py` in one folder)."""
    folder = os.path.dirname(os.path.abspath(app_file))
    try:
        names = sorted(os.listdir(folder))
    except OSError:
        return []
    return [(name[:-3], os.path.join(folder, name)) for name in names
            if name.endswith(".py") and name.isascii() and name[:-3].isidentifier() and not is_test_file(name)
            and name not in ("setup.py", "conftest.py", "manage.py")][:MAX_FILES]


def declares_shared_tasks(tree, app_modules: set[str]) -> list[ast.FunctionDef]:
    """Functions decorated as tasks by `shared_task`, or by `@x.task` in a file that imports the app's module."""
    imports_app = any(
        (isinstance(node, ast.ImportFrom) and node.module in app_modules)
        or (isinstance(node, ast.Import) and any(alias.name in app_modules for alias in node.names))
        for node in ast.walk(tree))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for decorator in node.decorator_list:
                target = decorator.func if isinstance(decorator, ast.Call) else decorator
                name = target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                if name == "shared_task" or (name in TASK_DECORATORS and imports_app):
                    found.append(node)
                    break
    return found


def unreached(spec_module: str, folder: str = "") -> list[Unreached]:
    app_modules = {spec_module, spec_module.rsplit(".", 1)[0]} if "." in spec_module else {spec_module}
    result = []
    for module, path in project_files(spec_module):
        if module in sys.modules:
            continue
        tree = parsed(path)
        if tree is None:
            continue
        tasks = declares_shared_tasks(tree, app_modules)
        if tasks:
            result.append(Unreached(module, os.path.relpath(path, folder or None), tasks[0].lineno,
                                    tuple(task.name for task in tasks)))
    return result
