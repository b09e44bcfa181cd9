"""The source digest changes with the lesson, the package modules it imports and the catalogs, and nothing else."""
from __future__ import annotations

import shutil
from pathlib import Path

from celerylab.compiler.digest import lesson_digest, package_files
from celerylab.compiler.imports import PACKAGE
from celerylab.compiler.model import Lesson

LESSON_01 = PACKAGE / "lessons" / "l01_retries"


def test_digest_follows_source_and_code(fixture_lessons):
    lesson = Lesson("l99_fixture", fixture_lessons / "l99_fixture")
    first = lesson_digest(lesson)
    assert lesson_digest(lesson) == first
    (lesson.folder / "__pycache__").mkdir()
    (lesson.folder / "__pycache__" / "tasks.cpython-311.pyc").write_bytes(b"noise")
    (lesson.folder / "notes.bin").write_bytes(b"not a source")
    assert lesson_digest(lesson) == first
    (lesson.folder / "test_claims_fixture.py").write_text("from celerylab.testing.claims import plain\n")
    (lesson.folder / "conftest.py").write_text("import pytest\n")
    (lesson.folder / "claims.yml").write_text("test_x: {pt: a, en: a}\n")
    (lesson.folder / "observed.json").write_text('{"python": "", "releases": {}}\n')
    (lesson.folder / "wrong_answers").mkdir()
    (lesson.folder / "wrong_answers" / "double__triple.py").write_text("import celerylab.audit\n")
    assert lesson_digest(lesson) == first  # what only the lesson's tests read changes no notebook
    assert not [path for path in package_files(lesson) if "audit" in path.parts]
    assert not [path for path in package_files(lesson) if "testing" in path.parts]
    (lesson.folder / "tasks.py").write_text("X = 1\n")
    with_code = lesson_digest(lesson)
    assert with_code != first
    (lesson.folder / "tasks.py").write_text("X = 2\n")
    assert lesson_digest(lesson) not in (first, with_code)
    source = lesson.source.read_text(encoding="utf-8")
    lesson.source.write_text(source.replace("Test lesson", "Test lesson 2"), encoding="utf-8")
    assert lesson_digest(lesson) not in (first, with_code)


def package_copy(tmp_path) -> Path:
    """A private copy of the celerylab package, safe to edit."""
    target = tmp_path / "pkg" / "celerylab"
    shutil.copytree(PACKAGE, target, ignore=shutil.ignore_patterns("__pycache__"))
    return target


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, (path, old)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def test_lesson_01_depends_on_what_it_imports_and_on_nothing_else():
    used = {path.relative_to(PACKAGE).as_posix() for path in package_files(Lesson("l01_retries", LESSON_01))}
    assert {"stack/stack.py", "stack/reaper.py", "fakes/email_provider.py", "checks/check_run.py",
            "appdb.py", "i18n/__init__.py", "i18n/build.yml"} <= used
    assert not [name for name in used if name.startswith(("sitegen/", "compiler/", "commands/", "lessons/l01"))]


def test_digest_follows_the_package_modules_and_catalogs_the_lesson_uses(tmp_path):
    package = package_copy(tmp_path)
    lesson = Lesson("l01_retries", package / "lessons" / "l01_retries")
    first = lesson_digest(lesson, package)
    edit(package / "sitegen" / "pages.py", '"""', '"""Unrelated. ')
    assert lesson_digest(lesson, package) == first
    for path, old in ((package / "stack" / "stack.py", "def "), (package / "stack" / "reaper.py", "import"),
                      (package / "i18n" / "stack.yml", "pt: "), (lesson.folder / "messages.yml", "pt: "),
                      (package / "checks" / "check_run.py", "def ")):
        before = lesson_digest(lesson, package)
        edit(path, old, old + " " if old != "def " else "def _extra(): pass\n\n\ndef ")
        assert lesson_digest(lesson, package) != before, path


def test_imports_are_followed_lazily_relatively_and_through_strings(tmp_path):
    package = tmp_path / "celerylab"
    for name, text in {"__init__.py": "", "a/__init__.py": "", "a/b.py": "from . import c\n",
                       "a/c.py": "def f():\n    import celerylab.d\n", "d.py": "RUN = 'celerylab.e'\n",
                       "e.py": "SCRIPT = 'f.py'\n", "f.py": "", "unrelated.py": "",
                       "i18n/x.yml": "k: {pt: a, en: b}\n"}.items():
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(text)
    folder = tmp_path / "l42_x"
    folder.mkdir()
    (folder / "tasks.py").write_text("from celerylab.a import b\n")
    used = {p.relative_to(package).as_posix() for p in package_files(Lesson("l42_x", folder), package)}
    assert used == {"__init__.py", "a/__init__.py", "a/b.py", "a/c.py", "d.py", "e.py", "f.py", "i18n/x.yml"}


def test_lesson_md_code_cells_count(tmp_path):
    package = tmp_path / "celerylab"
    (package / "stack").mkdir(parents=True)
    for name in ("__init__.py", "stack/__init__.py", "stack/smoke.py"):
        (package / name).write_text("")
    folder = tmp_path / "l42_x"
    folder.mkdir()
    (folder / "lesson.md").write_text('+++ {"id": "a"}\n```python\n%%writefile x.py\n'
                                      'from celerylab.stack import smoke\n```\n')
    used = {p.relative_to(package).as_posix() for p in package_files(Lesson("l42_x", folder), package)}
    assert used == {"__init__.py", "stack/__init__.py", "stack/smoke.py"}


def test_editing_lesson_01_messages_makes_build_check_fail(tmp_path, capsys):
    from celerylab.cli import main

    lessons = tmp_path / "lessons"
    shutil.copytree(LESSON_01, lessons / "l01_retries", ignore=shutil.ignore_patterns("__pycache__"))
    (lessons / "course.yml").write_text("- l01_retries\n")
    where = ["--root", str(tmp_path / "out"), "--lessons-dir", str(lessons)]
    assert main(["--lang", "en", "build", "--no-execute", *where]) == 0
    assert main(["--lang", "en", "build", "--check", "--no-execute", *where]) == 0
    edit(lessons / "l01_retries" / "messages.yml", "en: ", "en: X")
    capsys.readouterr()
    assert main(["--lang", "en", "build", "--check", "--no-execute", *where]) == 1
    assert "stale: notebooks/pt/01_retries.ipynb" in capsys.readouterr().err
