"""`celerylab dev new-lesson`: the files it writes, course.yml, and what it refuses (exit 2, nothing written)."""
from __future__ import annotations

import yaml

from celerylab.cli import main
from celerylab.compiler.parser import parse_file
from celerylab.compiler.sections import headings


def test_scaffold_writes_a_lesson_and_lists_it(lessons):
    folder = lessons / "l42_demo"
    assert sorted(p.name for p in folder.iterdir()) == ["__init__.py", "checks.py", "claims.yml", "conftest.py",
                                                       "exercises.yml", "experiments", "glossary.yml", "helpers.py",
                                                       "lesson.md", "messages.yml", "tasks.py", "test_claims_demo.py",
                                                       "wrong_answers"]
    assert sorted(p.name for p in (folder / "experiments").iterdir()) == ["__init__.py", "echo.py"]
    assert 'send_task("l42.echo"' in (folder / "experiments" / "echo.py").read_text()
    assert sorted(p.name for p in (folder / "wrong_answers").iterdir()) == ["double__drops_the_sign.py",
                                                                          "double__hard_coded.py"]
    assert "l42_demo" in (folder / "wrong_answers" / "double__hard_coded.py").read_text()
    assert (lessons / "course.yml").read_text() == "# the test course\n- l42_demo\n"
    cells = parse_file(folder / "lesson.md")
    assert [c.id for c in cells if c.exercise or c.check] == ["ex1-answer", "ex1-check"]
    assert "# Lição 42 — Demonstração" in cells[0].texts["pt"] and "# Lesson 42 — Demo" in cells[0].texts["en"]
    assert 'create_app("l42_demo")' in (folder / "tasks.py").read_text()
    assert "from celerylab.lessons.l42_demo import helpers" in (folder / "conftest.py").read_text()
    assert "from celerylab.lessons.l42_demo.experiments.echo import echo" in (folder / "test_claims_demo.py").read_text()
    claims = yaml.safe_load((folder / "claims.yml").read_text(encoding="utf-8"))
    assert list(claims) == ["test_the_worker_returns_what_it_is_sent"] and claims[next(iter(claims))]["cell"] == "echo-run"
    assert headings(cells)["echo-run"] == {"pt": "1. Uma tarefa num worker de verdade", "en": "1. A task on a real worker"}
    [term] = yaml.safe_load((folder / "glossary.yml").read_text(encoding="utf-8"))
    assert (term["pt"], term["en"]) == ("Eco", "Echo") and all(term["about"][lang].strip() for lang in ("pt", "en"))


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
