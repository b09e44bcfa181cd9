"""One lesson's exercises agree everywhere: exercises.yml, the source's cells, and checks.py's registrations."""
from __future__ import annotations

import ast
import hashlib
import importlib
import importlib.util
import re
import sys
from pathlib import Path

import psutil

from celerylab.authoring.problems import Problem, yaml_mapping
from celerylab.checks.extract import writefile_target
from celerylab.compiler.model import SourceCell
from celerylab.course import LESSONS_DIR
from celerylab.i18n import LANGS

MODULE = re.compile(r"^[A-Za-z_]\w*$")


def declared(folder: Path, prefix: str) -> tuple[dict[str, int], list[Problem]]:
    """The exercises of exercises.yml as {id: line}, and each one's missing title, hints or module."""
    path = folder / "exercises.yml"
    if not path.is_file():
        return {}, []
    data, lines, problems = yaml_mapping(path)
    ids = {}
    for name, info in data.items():
        line = lines.get(name)
        ids[f"{prefix}.{name}"] = line
        info = info if isinstance(info, dict) else {}
        if not (isinstance(info.get("module"), str) and MODULE.match(info["module"])):
            problems.append(Problem(path, line, "dev.p.no_module", {"exercise": name}))
        for lang in LANGS:
            if not _text(info.get("title"), lang):
                problems.append(Problem(path, line, "dev.p.no_title", {"exercise": name, "language": lang}))
            hints = info.get("hints")
            if not (isinstance(hints, list) and hints and all(_text(hint, lang) for hint in hints)):
                problems.append(Problem(path, line, "dev.p.no_hints", {"exercise": name, "language": lang}))
    return ids, problems


def _text(value: object, lang: str) -> bool:
    return isinstance(value, dict) and isinstance(value.get(lang), str) and bool(value[lang].strip())


def cell_problems(folder: Path, prefix: str, cells: list[SourceCell], ids: dict[str, int]) -> list[Problem]:
    """Every cell names a declared exercise; every exercise has an answer cell writing its module, and a check cell."""
    source, problems = folder / "lesson.md", []
    modules = _modules(folder)
    seen = {"exercise": set(), "check": set()}
    for cell in cells:
        for kind in ("exercise", "check"):
            value = getattr(cell, kind)
            if value is None:
                continue
            exercise_id = value if "." in value else f"{prefix}.{value}"
            seen[kind].add(exercise_id)
            if exercise_id not in ids:
                problems.append(Problem(source, cell.line, "dev.p.cell_unknown", {"kind": kind, "exercise": value}))
            elif kind == "exercise" and modules.get(exercise_id):
                target = writefile_target(next(iter(cell.texts.values())))
                wanted = f"{modules[exercise_id]}.py"
                if not target or target[0] != wanted:
                    problems.append(Problem(source, cell.line, "dev.p.answer_module",
                                            {"exercise": exercise_id, "module": wanted}))
    for exercise_id, line in ids.items():
        for kind in ("exercise", "check"):
            if exercise_id not in seen[kind]:
                problems.append(Problem(folder / "exercises.yml", line, f"dev.p.no_{kind}_cell",
                                        {"exercise": exercise_id}))
    return problems


def _modules(folder: Path) -> dict[str, str]:
    data, _, _ = yaml_mapping(folder / "exercises.yml") if (folder / "exercises.yml").is_file() else ({}, {}, [])
    prefix = folder.name.split("_", 1)[0]
    return {f"{prefix}.{name}": info.get("module") for name, info in data.items() if isinstance(info, dict)}


def import_checks(folder: Path) -> object:
    """The lesson's checks module: imported from the package, or by path for a lesson elsewhere."""
    if folder.resolve().parent == LESSONS_DIR:
        return importlib.import_module(f"celerylab.lessons.{folder.name}.checks")
    name = f"celerylab_devcheck_{hashlib.sha1(str(folder.resolve()).encode()).hexdigest()[:10]}_{folder.name}"
    spec = importlib.util.spec_from_file_location(name, folder / "checks.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def registered(folder: Path) -> tuple[dict[str, int | None], list[Problem]]:
    """The checks checks.py registers, as {id: decorator line}; importing it must not start processes."""
    path = folder / "checks.py"
    if not path.is_file():
        return {}, []
    from celerylab.checks.registry import REGISTRY

    before = {child.pid for child in psutil.Process().children(recursive=True)}
    try:
        module = import_checks(folder)
    except Exception as error:  # any failure to import is the author's to fix
        return {}, [Problem(path, None, "dev.p.checks_import", {"error": f"{type(error).__name__}: {error}"})]
    started = [child.pid for child in psutil.Process().children(recursive=True) if child.pid not in before]
    problems = [Problem(path, None, "dev.p.checks_started", {"count": len(started)})] if started else []
    lines = _decorator_lines(path)
    return ({exercise_id: lines.get(exercise_id) for exercise_id, function in REGISTRY.items()
             if function.__module__ == module.__name__}, problems)


def _decorator_lines(path: Path) -> dict[str, int]:
    lines = {}
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) and \
                (getattr(node.func, "id", None) or getattr(node.func, "attr", None)) == "exercise":
            lines[str(node.args[0].value)] = node.lineno
    return lines


def check_problems(folder: Path, ids: dict[str, int]) -> list[Problem]:
    """Each declared exercise has a registered check; each registered check is a declared exercise."""
    checks, problems = registered(folder)
    for exercise_id, line in checks.items():
        if exercise_id not in ids:
            problems.append(Problem(folder / "checks.py", line, "dev.p.check_undeclared", {"exercise": exercise_id}))
    for exercise_id, line in ids.items():
        if exercise_id not in checks:
            problems.append(Problem(folder / "exercises.yml", line, "dev.p.no_check", {"exercise": exercise_id}))
    return problems
