"""Module names say what a module is for: no two modules of celerylab share a generic name (`runner`, `text`, ...)."""
from __future__ import annotations

from collections import defaultdict
from pathlib import Path

import celerylab

PACKAGE = Path(celerylab.__file__).parent
# Names that say only that a module runs something, holds words or helps: two of them cannot be told apart
# (three runner.py and three text.py were, in audit/, matrix/, sitegen/ and grader/).
GENERIC = {"runner", "text", "utils", "helpers", "common", "misc"}
# A lesson folder's helpers.py is the convention (CONTRIBUTING: the plumbing its notebook calls), one per lesson.
# commands/_common.py is counted like any module (its leading underscore ignored) and is the only `common`:
# the commands package's private module of what the subcommands share (`--lang`, the EXERCISE argument and
# its lookup), not a subcommand; a second common.py anywhere makes the pair ambiguous and fails here.


def lesson_helpers(path: Path, package: Path) -> bool:
    return path.name == "helpers.py" and path.parent.parent == package / "lessons"


def module_name(path: Path) -> str:
    """The name a module is imported by, leading underscores aside (a package's is its folder's)."""
    return (path.parent.name if path.name == "__init__.py" else path.stem).lstrip("_")


def generic_modules(package: Path = PACKAGE) -> dict[str, list[str]]:
    """Each generic name to the modules of `package` that carry it (lesson helpers aside), as relative paths."""
    found: dict[str, list[str]] = defaultdict(list)
    for path in sorted(package.rglob("*.py")):
        if module_name(path) in GENERIC and not lesson_helpers(path, package):
            found[module_name(path)].append(path.relative_to(package).as_posix())
    return dict(found)


def shared(package: Path = PACKAGE) -> dict[str, list[str]]:
    return {name: paths for name, paths in generic_modules(package).items() if len(paths) > 1}


def test_no_two_modules_of_celerylab_share_a_generic_name():
    assert shared() == {}, "rename each to what it is for (CONTRIBUTING's layout table names it)"


def test_the_guard_finds_a_shared_generic_name_and_spares_lesson_helpers(tmp_path):
    files = ["audit/text.py", "matrix/text.py", "sitegen/site_messages.py", "commands/_common.py", "misc/__init__.py",
             "stack/common.py", "lessons/l01_a/helpers.py", "lessons/l02_b/helpers.py", "grader/runner.py",
             "lessons/l01_a/text.py"]
    for name in files:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("", encoding="utf-8")
    assert shared(tmp_path) == {"text": ["audit/text.py", "lessons/l01_a/text.py", "matrix/text.py"],
                                "common": ["commands/_common.py", "stack/common.py"]}
    assert generic_modules(tmp_path)["misc"] == ["misc/__init__.py"]
    assert "helpers" not in generic_modules(tmp_path)
