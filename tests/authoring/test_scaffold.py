"""`celerylab dev new-lesson`: the files it writes, course.yml, and what it refuses (exit 2, nothing written)."""
from __future__ import annotations

from celerylab.cli import main
from celerylab.compiler.parser import parse_file


def test_scaffold_writes_a_lesson_and_lists_it(lessons):
    folder = lessons / "l42_demo"
    assert sorted(p.name for p in folder.iterdir()) == ["__init__.py", "checks.py", "exercises.yml", "helpers.py",
                                                       "lesson.md", "messages.yml", "tasks.py", "wrong_answers"]
    assert sorted(p.name for p in (folder / "wrong_answers").iterdir()) == ["double__drops_the_sign.py",
                                                                          "double__hard_coded.py"]
    assert "l42_demo" in (folder / "wrong_answers" / "double__hard_coded.py").read_text()
    assert (lessons / "course.yml").read_text() == "# the test course\n- l42_demo\n"
    cells = parse_file(folder / "lesson.md")
    assert [c.id for c in cells if c.exercise or c.check] == ["ex1-answer", "ex1-check"]
    assert "# Lição 42 — Demonstração" in cells[0].texts["pt"] and "# Lesson 42 — Demo" in cells[0].texts["en"]
    assert 'create_app("l42_demo")' in (folder / "tasks.py").read_text()


def test_refusals(lessons, capsys):
    where = ["--lessons-dir", str(lessons)]
    for argv, message in ((["42", "demo"], "already exists: nothing was created"),
                          (["42", "other"], "Number 42 already belongs to lesson l42_demo"),
                          (["7", "x"], "must be two digits (01 to 99), not '7'"),
                          (["43", "Bad-Slug"], "not 'Bad-Slug'")):
        assert main(["--lang", "en", "dev", "new-lesson", *argv, *where]) == 2
        assert message in capsys.readouterr().err
    assert (lessons / "course.yml").read_text() == "# the test course\n- l42_demo\n"
    assert sorted(p.name for p in lessons.iterdir()) == ["course.yml", "l42_demo"]


def test_a_mapping_course_file_is_extended(tmp_path):
    lessons = tmp_path / "lessons"
    lessons.mkdir()
    (lessons / "course.yml").write_text("lessons:\n- l01_a\n")
    assert main(["dev", "new-lesson", "02", "b", "--lessons-dir", str(lessons)]) == 0
    assert "lessons:\n- l01_a\n- l02_b\n" == (lessons / "course.yml").read_text()
