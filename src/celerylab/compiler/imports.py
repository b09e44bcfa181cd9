"""The celerylab modules a lesson depends on: the imports of its Python files, followed transitively."""
from __future__ import annotations

import ast
import re
from functools import lru_cache
from pathlib import Path

from celerylab import robust_parse

PACKAGE = Path(__file__).resolve().parents[1]
# A string like "celerylab.fakes.email_provider" names a module a stack runs (`python -m`, worker app).
MODULE_STRING = re.compile(r"^celerylab(?:\.[A-Za-z_]\w*)+$")
# A string like "reaper.py" in a package module names a sibling script it runs by path.
SIBLING_SCRIPT = re.compile(r"^([A-Za-z_]\w*)\.py$")
FENCE = re.compile(r"^[ \t]*```(?:python|py|ipython)[ \t]*\n(.*?)^[ \t]*```", re.M | re.S)
IMPORT_LINE = re.compile(r"^\s*(?:from\s+\S+\s+import\s+[^()]+|import\s+.+)$")


def module_file(name: str, package: Path = PACKAGE) -> Path | None:
    """The file of module `celerylab.a.b` under `package` (a package's __init__.py), or None."""
    parts = name.split(".")
    if parts[0] != "celerylab":
        return None
    base = package.joinpath(*parts[1:])
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def package_of(path: Path, package: Path = PACKAGE) -> str:
    """The package a module file belongs to (a package's __init__.py belongs to the package itself)."""
    return ".".join(("celerylab", *path.relative_to(package).parent.parts))


def referenced(tree: ast.AST, current_package: str = "") -> set[str]:
    """Module names a tree imports (anywhere, lazy imports included) or names in a module-like string."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the current module's package
                parts = current_package.split(".")
                anchor = parts[:len(parts) - node.level + 1]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            found.add(base)
            found.update(f"{base}.{alias.name}" for alias in node.names)  # `from pkg import submodule`
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and MODULE_STRING.match(node.value):
            found.add(node.value)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and current_package:
            script = SIBLING_SCRIPT.match(node.value)
            if script:
                found.add(f"{current_package}.{script.group(1)}")
    return found


def with_parents(name: str) -> list[str]:
    """`celerylab.a.b` -> celerylab, celerylab.a, celerylab.a.b: importing a module runs its packages too."""
    parts = name.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def parse_python(text: str) -> list[ast.AST]:
    """A Python file's tree, or, when it is not valid Python, the trees of its single-line imports."""
    try:
        return [robust_parse.parse(text)]
    except SyntaxError:
        trees = []
        for line in text.splitlines():
            if IMPORT_LINE.match(line):
                try:
                    trees.append(robust_parse.parse(line.strip()))
                except SyntaxError:
                    pass
        return trees


def markdown_code(text: str) -> list[str]:
    """The Python fences of a lesson.md, with IPython magics (`%%writefile`, `!cmd`) blanked out."""
    return ["\n".join("" if line.lstrip().startswith(("%", "!")) else line for line in body.splitlines())
            for body in FENCE.findall(text)]


def test_only(path: Path) -> bool:
    """A lesson file only its tests read (test_*.py, conftest.py, claims.yml, observed.json, wrong_answers/): no
    notebook shows it."""
    return (path.name.startswith("test_") or path.name in {"conftest.py", "claims.yml", "observed.json"}
            or "wrong_answers" in path.parts)


def seeds(folder: Path) -> set[str]:
    """Module names the lesson folder's .py files (tests aside) and lesson.md code cells reference."""
    names: set[str] = set()
    for path in sorted(folder.rglob("*.py")):
        if "__pycache__" not in path.parts and not test_only(path):
            for tree in parse_python(path.read_text(encoding="utf-8")):
                names |= referenced(tree)
    source = folder / "lesson.md"
    if source.is_file():
        for code in markdown_code(source.read_text(encoding="utf-8")):
            for tree in parse_python(code):
                names |= referenced(tree)
    return names


def package_dependencies(folder: Path, package: Path = PACKAGE) -> list[Path]:
    """Every celerylab module file the lesson in `folder` reaches, transitively, outside the folder itself."""
    folder = folder.resolve()
    return reached(seeds(folder), package, outside=folder)


def reached(names: set[str], package: Path = PACKAGE, outside: Path | None = None) -> list[Path]:
    """Every celerylab module file the module `names` reach, transitively; files under `outside` are neither listed
    nor followed."""
    pending = sorted(names)
    files: set[Path] = set()
    seen: set[str] = set()
    while pending:
        name = pending.pop()
        for each in with_parents(name):
            if each in seen:
                continue
            seen.add(each)
            path = module_file(each, package)
            if path is None or path in files or (outside is not None and outside in path.parents):
                continue
            files.add(path)
            pending.extend(file_references(path, package))
    return sorted(files)


def file_references(path: Path, package: Path = PACKAGE) -> list[str]:
    """The module names a package module file references (`referenced`), read once per version of the file."""
    stat = path.stat()
    return _file_references(path, package, stat.st_mtime_ns, stat.st_size)


@lru_cache(maxsize=4096)
def _file_references(path: Path, package: Path, _mtime_ns: int, _size: int) -> list[str]:
    """Keyed by the file's modification time and size too, so that an edited file is parsed again."""
    names: set[str] = set()
    for tree in parse_python(path.read_text(encoding="utf-8")):
        names |= referenced(tree, package_of(path, package))
    return sorted(names)
