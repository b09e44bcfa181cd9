"""Every claim test observes through an experiment of its lesson that a measured cell shows (read statically, by ast)."""
from __future__ import annotations

import ast
from dataclasses import dataclass, field
from pathlib import Path

from celerylab.authoring.experiment_cells import measured
from celerylab.authoring.problems import Problem
from celerylab.compiler import experiments
from celerylab.compiler.model import SourceCell

EXEMPT_KEY = "no_experiment"  # a claims.yml entry's reason ({pt, en}) why its claim measures nothing live
# Messages: matrix.claims.* in matrix/messages.yml (a claim test is the matrix's unit; no lesson digest hashes it)
PACKAGE = "celerylab.lessons"


@dataclass
class Module:
    """One test module (or conftest.py) as the rule reads it: what it imports from experiments, its functions."""

    functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = field(default_factory=dict)
    fixtures: set[str] = field(default_factory=set)
    imported: dict[str, str] = field(default_factory=dict)  # local name -> experiment module it comes from
    modules: dict[str, str] = field(default_factory=dict)  # local name bound to an experiment module -> that module


def experiment_of(lesson: str, module: str | None, level: int) -> str | None:
    """The experiment module a `from <module> import ...` names, if it is one of `lesson`'s ('' for the package)."""
    module = module or ""
    if level == 1:
        dotted = module
    elif level == 0 and module.startswith(f"{PACKAGE}.{lesson}."):
        dotted = module[len(f"{PACKAGE}.{lesson}."):]
    else:
        return None
    parts = dotted.split(".")
    if parts[0] != experiments.FOLDER or len(parts) > 2:
        return None
    return parts[1] if len(parts) == 2 else ""


def is_fixture(node: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    for decorator in node.decorator_list:
        target = decorator.func if isinstance(decorator, ast.Call) else decorator
        if isinstance(target, ast.Attribute) and target.attr == "fixture" or \
                isinstance(target, ast.Name) and target.id == "fixture":
            return True
    return False


def read_module(path: Path, lesson: str) -> Module:
    read = Module()
    if not path.is_file():
        return read
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found = experiment_of(lesson, node.module, node.level)
            for alias in node.names if found is not None else ():
                if found:
                    read.imported[alias.asname or alias.name] = found
                else:  # `from .experiments import name`: the module itself
                    read.modules[alias.asname or alias.name] = alias.name
        elif isinstance(node, ast.Import):
            for alias in node.names:
                found = experiment_of(lesson, alias.name, 0)
                if found and alias.asname:
                    read.modules[alias.asname] = found
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            read.functions[node.name] = node
            if is_fixture(node):
                read.fixtures.add(node.name)
    return read


def parametrized(node: ast.FunctionDef | ast.AsyncFunctionDef, module: Module) -> set[str]:
    """Experiment modules whose functions a `pytest.mark.parametrize` of `node` passes it (the test calls its argument)."""
    found = set()
    for decorator in node.decorator_list:
        if isinstance(decorator, ast.Call) and isinstance(decorator.func, ast.Attribute) \
                and decorator.func.attr == "parametrize":
            for value in decorator.args[1:] + [keyword.value for keyword in decorator.keywords
                                              if keyword.arg == "argvalues"]:
                found |= {module.imported[name.id] for name in ast.walk(value)
                          if isinstance(name, ast.Name) and name.id in module.imported}
    return found


def called(node: ast.FunctionDef | ast.AsyncFunctionDef, module: Module) -> tuple[set[str], set[str]]:
    """(experiment modules whose functions `node` calls, names of the module's own functions it calls)."""
    found, local = parametrized(node, module), set()
    for call in ast.walk(node):
        if not isinstance(call, ast.Call):
            continue
        func = call.func
        if isinstance(func, ast.Name):
            if func.id in module.imported:
                found.add(module.imported[func.id])
            elif func.id in module.functions:
                local.add(func.id)
        elif isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in module.modules:
            found.add(module.modules[func.value.id])
    return found, local


def observed_through(name: str, test: Module, conftest: Module) -> set[str]:
    """The experiment modules test `name` calls: in its body, in the module's functions it calls, in the fixtures it
    requests (from its module, else the lesson's conftest.py), followed transitively."""
    found: set[str] = set()
    seen: set[tuple[int, str]] = set()
    todo: list[tuple[Module, str]] = [(test, name)]
    while todo:
        module, function = todo.pop()
        if (id(module), function) in seen:
            continue
        seen.add((id(module), function))
        node = module.functions[function]
        calls, local = called(node, module)
        found |= calls
        todo += [(module, other) for other in local]
        arguments = node.args.posonlyargs + node.args.args + node.args.kwonlyargs
        for argument in (a.arg for a in arguments):
            if module is test and argument in test.fixtures:
                todo.append((test, argument))
            elif argument in conftest.fixtures:
                todo.append((conftest, argument))
    return found


def shown_experiments(cells: list[SourceCell]) -> set[str]:
    """The experiment modules some measured cell of the lesson notebook shows."""
    return {name for cell in cells if measured(cell) for text in cell.texts.values()
            for name in experiments.named(text) or ()}


def exempt(entry: object) -> bool:
    reason = entry.get(EXEMPT_KEY) if isinstance(entry, dict) else None
    return isinstance(reason, dict) and all(isinstance(reason.get(lang), str) and reason[lang].strip()
                                            for lang in ("pt", "en"))


def claim_experiment_problems(folder: Path, cells: list[SourceCell], described: dict) -> tuple[list[Problem], list]:
    """(claim tests that observe through no shown experiment, and the exempt ones as (file, test) pairs)."""
    lesson, shown = folder.name, shown_experiments(cells)
    conftest = read_module(folder / "conftest.py", lesson)
    problems: list[Problem] = []
    exempted = []
    for path in sorted(folder.glob("test_claims_*.py")):
        module = read_module(path, lesson)
        for name, node in module.functions.items():
            if not name.startswith("test_"):
                continue
            if exempt(described.get(name)):
                exempted.append((path, node.lineno, name))
                continue
            if EXEMPT_KEY in (described.get(name) or {}):
                problems.append(Problem(path, node.lineno, "matrix.claims.exempt_reason", {"test": name}))
                continue
            used = observed_through(name, module, conftest)
            if not used:
                problems.append(Problem(path, node.lineno, "matrix.claims.no_experiment", {"test": name}))
            elif used - shown:
                problems.append(Problem(path, node.lineno, "matrix.claims.experiment_hidden",
                                        {"test": name, "names": ", ".join(sorted(used - shown))}))
    return problems, exempted
