"""The source digest changes with lesson.md or the lesson's code, and with nothing else."""
from __future__ import annotations

from celerylab.compiler.digest import lesson_digest
from celerylab.compiler.model import Lesson


def test_digest_follows_source_and_code(fixture_lessons):
    lesson = Lesson("l99_fixture", fixture_lessons / "l99_fixture")
    first = lesson_digest(lesson)
    assert lesson_digest(lesson) == first
    (lesson.folder / "__pycache__").mkdir()
    (lesson.folder / "__pycache__" / "tasks.cpython-311.pyc").write_bytes(b"noise")
    (lesson.folder / "notes.bin").write_bytes(b"not a source")
    assert lesson_digest(lesson) == first
    (lesson.folder / "tasks.py").write_text("X = 1\n")
    with_code = lesson_digest(lesson)
    assert with_code != first
    (lesson.folder / "tasks.py").write_text("X = 2\n")
    assert lesson_digest(lesson) not in (first, with_code)
    source = lesson.source.read_text(encoding="utf-8")
    lesson.source.write_text(source.replace("Test lesson", "Test lesson 2"), encoding="utf-8")
    assert lesson_digest(lesson) not in (first, with_code)
