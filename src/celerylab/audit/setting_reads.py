"""The setting names code reads: the project's own (`settings.X`, `config["X"]`, `.get("X")`, `getattr(o, "X")`, and
a module variable read by name, as a settings module uses its own constant: `"schedule": CELERY_EXPORT_CHECK`), and
those the installed libraries loaded with it read (django-celery-email's `settings.CELERY_EMAIL_BACKEND`, the
names a django-appconf class declares under its prefix)."""
from __future__ import annotations

import ast
import os
import re
import sys

from celerylab.audit.loader import is_user_module
from celerylab.audit.usages import call_name, parsed

LOOKUPS = {"get", "getattr", "hasattr", "getenv", "setdefault", "pop", "get_setting"}
# Celery and its own libraries are the subject: a key they read is a known setting (project_settings.is_known), and
# their attribute reads (`self.prefetch_multiplier`) must not pass a user's misspelt key for read.
CELERY_FAMILY = {"celery", "kombu", "billiard", "vine", "amqp", "celerylab"}
INSTALLED = re.compile(r"[/\\](site|dist)-packages[/\\]")  # where pip puts libraries (the standard library is not)


def is_text(node) -> bool:
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def read_names(tree) -> set[str]:
    """Names the module reads as an attribute, a subscript or a lookup call; a dict's keys and the names it assigns
    are writes, not reads."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load):
            found.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
            found.add(node.id)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and is_text(node.slice):
            found.add(str(getattr(node.slice, "value", "")))
        elif isinstance(node, ast.Call) and call_name(node) in LOOKUPS:
            found |= {str(getattr(arg, "value", "")) for arg in node.args[:2] if is_text(arg)}
    return found


def project_reads(view) -> set[str]:
    """Every name read in the files the audit reads for call sites (the loaded modules, then --scan's)."""
    from celerylab.audit.scan import call_site_files

    names: set[str] = set()
    for path in call_site_files(view):
        tree = parsed(path)
        if tree is not None:
            names |= read_names(tree)
    return names


def spelling_files(paths, keys: set[str], also: str = "") -> list[tuple[str, ast.Module]]:
    """(path, syntax tree) of the files among `paths` whose text spells one of `keys` (or `also`): only those are
    parsed, so a large package costs a read of its text."""
    found: list[tuple[str, ast.Module]] = []
    for path in paths:
        try:
            with open(path, encoding="utf-8") as handle:
                source = handle.read()
        except (OSError, UnicodeDecodeError):
            continue
        if any(key in source for key in keys) or (also and also in source):
            tree = parsed(path)
            if tree is not None:
                found.append((path, tree))
    return found


def package_reads(view, keys: set[str]) -> set[str]:
    """Which of `keys` the app's own package reads in a module the load did not import (the Beat scheduler class a
    setting names, a health check): the project's own setting all the same."""
    from celerylab.audit.reach import project_files
    from celerylab.audit.scan import call_site_files

    read = {os.path.realpath(path) for path in call_site_files(view)}
    paths = [path for _, path in project_files(view.loaded.spec.partition(":")[0])
             if os.path.realpath(path) not in read]
    names: set[str] = set()
    for _, tree in spelling_files(paths, keys):
        names |= read_names(tree)
    return names & keys


def spelled(view, key: str) -> set[str]:
    """`key` as the project's code may read it: as Celery names it, and under the app's namespace (CELERY_X)."""
    return {key, f"{view.app.namespace}_{key.upper()}"} if view.app.namespace else {key}


def library_files() -> dict[str, str]:
    """The files of the installed libraries loaded in this process (not the project's, not Python's, not Celery's),
    each with its module's name: what the load imported, and what an earlier load in the same process already had."""
    files: dict[str, str] = {}
    for name, module in list(sys.modules.items()):
        path = getattr(module, "__file__", None) or ""
        if (module is None or not isinstance(path, str) or not path.endswith(".py") or is_user_module(module)
                or name.partition(".")[0] in CELERY_FAMILY or not INSTALLED.search(path)):
            continue
        files.setdefault(path, name)
    return files


def is_conf(node) -> bool:
    """`conf`, `app.conf`, `self.app.conf`: Celery's configuration object, read by an extension."""
    return (isinstance(node, ast.Attribute) and node.attr == "conf") or (isinstance(node, ast.Name) and node.id == "conf")


def library_read_names(tree) -> set[str]:
    """What a library module reads as a setting: an uppercase name (Django's settings style) read any way, a lowercase
    one only as a string key (`conf.get("x")`, `conf["x"]`) or an attribute of Celery's `conf`; a library's
    attribute reads of its own objects (`self.timeout`) are no settings."""
    names = {name for name in read_names(tree) if name.isupper()}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Load) and is_conf(node.value):
            names.add(node.attr)
        elif isinstance(node, ast.Subscript) and isinstance(node.ctx, ast.Load) and is_text(node.slice):
            names.add(str(getattr(node.slice, "value", "")))
        elif isinstance(node, ast.Call) and call_name(node) in LOOKUPS:
            names |= {str(getattr(arg, "value", "")) for arg in node.args[:2] if is_text(arg)}
    return names


def is_appconf(node: ast.ClassDef) -> bool:
    return any((base.attr if isinstance(base, ast.Attribute) else getattr(base, "id", "")) == "AppConf"
               for base in node.bases)


def appconf_prefix(node: ast.ClassDef, module: str) -> str:
    """django-appconf's prefix: `Meta.prefix`, else `Meta.app_label`, else the package holding the module."""
    for inner in node.body:
        if isinstance(inner, ast.ClassDef) and inner.name == "Meta":
            for statement in inner.body:
                if isinstance(statement, ast.Assign) and is_text(statement.value):
                    if any(getattr(target, "id", "") in ("prefix", "app_label") for target in statement.targets):
                        return str(getattr(statement.value, "value", ""))
    parts = module.split(".")
    return parts[-2] if len(parts) > 1 else parts[0]


def appconf_names(tree, module: str) -> set[str]:
    """The settings a django-appconf class declares: each uppercase attribute under the class's prefix, as
    appconf's `prefixed_name` spells it (`CHUNK_SIZE` under `CELERY_EMAIL` is `CELERY_EMAIL_CHUNK_SIZE`)."""
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and is_appconf(node):
            prefix = appconf_prefix(node, module).upper()
            for statement in node.body:
                targets = statement.targets if isinstance(statement, ast.Assign) else \
                    [statement.target] if isinstance(statement, ast.AnnAssign) else []
                for target in targets:
                    name = getattr(target, "id", "")
                    if name.isupper():
                        names.add(name if name.startswith(prefix) else f"{prefix}_{name}")
    return names


def library_reads(keys) -> set[str]:
    """Which of `keys` a loaded library reads (a setting of its own, offered to Celery by a settings object read
    whole). Only the files that spell one of them, or declare an appconf class, are parsed."""
    wanted = set(keys)
    files = library_files()
    found: set[str] = set()
    for path, tree in spelling_files(files, wanted, also="AppConf"):
        found |= (library_read_names(tree) | appconf_names(tree, files[path])) & wanted
    return found
