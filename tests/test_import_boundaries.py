"""No lesson imports another lesson, and the stack, the testing plugins and the commands import no lesson at all."""
from __future__ import annotations

import ast
import re
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1] / "src" / "celerylab"
LESSON = re.compile(r"celerylab\.lessons\.(l\d\d_\w+)")


def lessons_named(path: Path) -> set[str]:
    """The lessons a module names: in an import, or as a dotted module name in a string (a module a process runs)."""
    named = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            texts = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        elif isinstance(node, ast.Import):
            texts = [alias.name for alias in node.names]
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            texts = [node.value]
        else:
            continue
        named |= {found.group(1) for text in texts for found in LESSON.finditer(text)}
    return named


def crossings(package: Path) -> list[str]:
    found = []
    for path in sorted((package / "lessons").glob("l*/**/*.py")):
        own = path.relative_to(package / "lessons").parts[0]
        found += [f"{path.relative_to(package)} -> {other}" for other in sorted(lessons_named(path) - {own})]
    for folder in ("stack", "testing", "commands"):
        for path in sorted((package / folder).rglob("*.py")):
            found += [f"{path.relative_to(package)} -> {lesson}" for lesson in sorted(lessons_named(path))]
    return found


def test_no_lesson_imports_another_and_the_tool_imports_no_lesson():
    assert crossings(PACKAGE) == []


def test_the_guard_sees_an_import_a_from_import_and_a_module_named_in_a_string(tmp_path):
    lesson = tmp_path / "lessons" / "l05_beat"
    lesson.mkdir(parents=True)
    (lesson / "checks.py").write_text("from celerylab.lessons.l01_retries import elsewhere\n")
    (lesson / "ok.py").write_text("from celerylab.lessons.l05_beat import helpers\n")
    (tmp_path / "stack").mkdir()
    (tmp_path / "stack" / "node.py").write_text('ARGV = ["-m", "celerylab.lessons.l08_rabbitmq.worker"]\n')
    (tmp_path / "testing").mkdir()
    (tmp_path / "testing" / "plugin.py").write_text("import celerylab.lessons.l02_workers.helpers\n")
    assert crossings(tmp_path) == ["lessons/l05_beat/checks.py -> l01_retries", "stack/node.py -> l08_rabbitmq",
                                   "testing/plugin.py -> l02_workers"]
