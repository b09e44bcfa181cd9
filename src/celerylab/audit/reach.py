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
    names: tuple[str, ...] = ()   # the names the tasks register under (`name=`, else module.function)
    path: str = ""


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
                                    tuple(task.name for task in tasks),
                                    tuple(task_name(task, module) for task in tasks), path))
    return result


def task_name(function, module: str) -> str:
    """The name a task decorator gives: its literal `name=`, else module.function (Celery's default)."""
    for decorator in function.decorator_list:
        if isinstance(decorator, ast.Call):
            for keyword in decorator.keywords:
                if keyword.arg == "name" and isinstance(keyword.value, ast.Constant):
                    return str(keyword.value.value)
    return f"{module}.{function.name}"


def imports_module(tree, importer: str, module: str) -> bool:
    """Whether a module's source imports `module` (`import m`, `from m import x`, `from package import m`,
    relative forms resolved against `importer`)."""
    package, _, last = module.rpartition(".")
    for node in ast.walk(tree):
        if isinstance(node, ast.Import) and any(alias.name == module or alias.name.startswith(f"{module}.")
                                               for alias in node.names):
            return True
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = importer.rsplit(".", node.level)[0] if "." in importer else ""
                base = f"{parent}.{base}".strip(".")
            if base == module or (base == package and any(alias.name == last for alias in node.names)):
                return True
    return False


def names_tasks(tree, found: Unreached) -> bool:
    """Whether a source names the module's tasks by their registered names or the module by its dotted name
    (`send_task("data.backup_db")`, a Beat entry's "task", an `imports` list): a send by name."""
    wanted = {*found.names, found.module}
    return any(isinstance(node, ast.Constant) and node.value in wanted for node in ast.walk(tree))


def parsed_sources(sources: list[tuple[str, str]]) -> list[tuple[str, str, ast.Module]]:
    """(module name, real path, syntax tree) of each readable file of `sources` ((module name, file)), once each."""
    seen: set[str] = set()
    trees = []
    for module, path in sources:
        real = os.path.realpath(path)
        tree = None if real in seen else parsed(path)
        seen.add(real)
        if tree is not None:
            trees.append((module, real, tree))
    return trees


def referenced(found: Unreached, trees: list[tuple[str, str, ast.Module]], configured: set[str]) -> bool:
    """Whether anything in the project imports the unreached module or names its tasks: the evidence that a task
    of it is sent (by a process that imported it, or by name), where a worker that never imports it drops it.
    `trees`: the project's files (parsed_sources); `configured`: the task names the app's configuration names
    (Beat entries, routes, annotations)."""
    if configured & set(found.names):
        return True
    own = os.path.realpath(found.path)
    return any(real != own and (imports_module(tree, module, found.module) or names_tasks(tree, found))
               for module, real, tree in trees)
