"""Each rule of `celerylab dev check`, on a scaffolded lesson broken one way at a time (nothing is started)."""
from __future__ import annotations

import pytest

from celerylab.authoring.course_check import check_course
from celerylab.cli import main
from celerylab.course import Course

from .conftest import edit


def problems(lessons) -> list[str]:
    report = check_course(Course.at(lessons), root=lessons.parent / "out", freshness=False)
    return [problem.render() for problem in report.problems]


def test_the_template_lesson_is_consistent(lessons):
    report = check_course(Course.at(lessons), freshness=False)
    assert report.problems == []
    assert (report.lessons, report.exercises) == (1, 1) and report.messages > 200


def test_course_listing(lessons):
    edit(lessons / "course.yml", "- l42_demo", "- l42_demo\n- l43_missing\n- l42_again\n- Lesson3")
    (lessons / "l44_orphan").mkdir()
    (lessons / "l44_orphan" / "lesson.md").write_text("")
    found = "\n".join(problems(lessons))
    assert "lesson 'l43_missing' is in course.yml, but folder" in found
    assert "lesson 'l42_again' uses the same number as 'l42_demo'" in found
    assert "'Lesson3' does not follow the lNN_name form" in found
    assert "lesson.md: lesson folder 'l44_orphan' is not in course.yml" in found


def test_source_errors_are_located(lessons):
    edit(lessons / "l42_demo" / "lesson.md", '+++ {"id": "echo-run"}', '+++ {"id": "echo-run", "color": 1}')
    [problem] = problems(lessons)
    assert problem.endswith("l42_demo/lesson.md:57: unknown metadata key(s): color "
                            "(known: alt, audit, audit_again, check, docs, exercise, id, lang, measures, needs, part, tags, text_lang)")


def test_exercise_ids_agree_across_yml_cells_and_checks(lessons):
    edit(lessons / "l42_demo" / "lesson.md", '"check": "l42.double"', '"check": "l42.triple"')
    edit(lessons / "l42_demo" / "checks.py", '@exercise("l42.double")', '@exercise("l42.half")')
    found = problems(lessons)
    assert any('lesson.md:' in p and 'the cell with "check": "l42.triple" matches no exercise' in p for p in found)
    assert any("exercises.yml:1: exercise 'l42.double' has no check cell" in p for p in found)
    assert any("checks.py:7: check 'l42.half' matches no exercise" in p for p in found)
    assert any("exercises.yml:1: exercise 'l42.double' has no check registered" in p for p in found)


def test_answer_cell_must_write_the_declared_module(lessons):
    edit(lessons / "l42_demo" / "exercises.yml", "module: ex_double", "module: ex_twice")
    [problem] = problems(lessons)
    assert "the answer cell of 'l42.double' must start with %%writefile ex_twice.py" in problem


def test_an_exercise_needs_title_and_hints_in_both_languages(lessons):
    edit(lessons / "l42_demo" / "exercises.yml", '    en: "Double a number, on the worker"\n', "")
    edit(lessons / "l42_demo" / "exercises.yml", '      en: "return n * 2"\n', "")
    assert problems(lessons) == [
        f"{lessons}/l42_demo/exercises.yml:1: exercise 'double' has no title in en",
        f"{lessons}/l42_demo/exercises.yml:1: exercise 'double' needs at least one hint, and every hint needs a text in en"]


def test_checks_that_cannot_be_imported_or_start_processes(lessons):
    checks = lessons / "l42_demo" / "checks.py"
    checks.write_text(checks.read_text() + "\nimport no_such_module_here\n")
    assert any("checks.py: checks.py could not be imported: ModuleNotFoundError" in p for p in problems(lessons))
    checks.write_text(checks.read_text().replace("import no_such_module_here", "import subprocess\n"
                                                 "SLEEPER = subprocess.Popen(['sleep', '5'])"))
    try:
        assert any("importing checks.py started 1 process(es)" in p for p in problems(lessons))
    finally:
        import sys

        for name, module in list(sys.modules.items()):
            if name.startswith("celerylab_devcheck_") and hasattr(module, "SLEEPER"):
                module.SLEEPER.kill()
                module.SLEEPER.wait()


def test_message_keys_used_by_the_lesson_exist(lessons):
    edit(lessons / "l42_demo" / "checks.py", '"l42.check.double"', '"l42.check.dubble"')
    helpers = lessons / "l42_demo" / "helpers.py"
    helpers.write_text(helpers.read_text() + "\n\ndef label(name):\n    from celerylab.i18n import t\n"
                       "    return t('l42.col.' + name), t(f'l42.check.{name}'), t('cli.usage')\n")
    found = problems(lessons)
    assert any("checks.py:12: message 'l42.check.dubble' is not in the catalogs" in p for p in found)
    assert any("helpers.py:17: no message in the catalogs starts with 'l42.col.'" in p for p in found)
    assert len(found) == 2


@pytest.mark.parametrize("entry,expected", [
    ('l42.x:\n  pt: "só pt"\n', "messages.yml:4: message 'l42.x' has no text in: en"),
    ('l42.x:\n  pt: "{a}"\n  en: "{b}"\n', "messages.yml:4: message 'l42.x' has different placeholders in pt ['a'] and en ['b']"),
    ('x.y:\n  pt: "a"\n  en: "b"\n', "messages.yml:4: lesson message 'x.y' must start with 'l42.'"),
    ('cli.usage:\n  pt: "a"\n  en: "b"\n', "messages.yml:4: message 'cli.usage' is already defined in"),
    ('l42.check.double:\n  pt: "a"\n  en: "b"\n', "messages.yml:4: key 'l42.check.double' appears again (the first is on line 1)"),
])
def test_catalog_entries(lessons, entry, expected):
    messages = lessons / "l42_demo" / "messages.yml"
    messages.write_text(messages.read_text() + entry)
    assert any(expected in p for p in problems(lessons)), problems(lessons)


def test_command_lines_and_exit_codes(lessons, tmp_path, capsys):
    where = ["--lessons-dir", str(lessons), "--root", str(tmp_path / "out")]
    assert main(["dev", "check", "--no-stale", *where]) == 0
    assert "The course is consistent (lessons: 1; exercises: 1;" in capsys.readouterr().out
    assert main(["dev", "check", *where]) == 1
    err = capsys.readouterr().err
    assert "notebooks/pt/42_demo.ipynb: stale (file missing)" in err and "Problems in the sources: 0; stale generated files: 6" in err
    edit(lessons / "l42_demo" / "checks.py", '"l42.check.double"', '"l42.check.dubble"')
    assert main(["--lang", "pt", "dev", "check", "--no-stale", *where]) == 1
    assert "a mensagem 'l42.check.dubble' não existe nos catálogos" in capsys.readouterr().err


def test_every_exercise_keeps_two_described_wrong_answers(lessons):
    wrong = lessons / "l42_demo" / "wrong_answers"
    (wrong / "double__hard_coded.py").unlink()
    edit(wrong / "double__drops_the_sign.py", "Violates:", "Breaks:")
    (wrong / "triple__off_by_one.py").write_text('"""Adds one. Violates: "twice n"."""\n')
    found = problems(lessons)
    assert f"{lessons}/l42_demo/exercises.yml:1: exercise 'l42.double' keeps 1 wrong answer(s); it needs at least 2, " \
           "each in wrong_answers/double__<slug>.py" in found
    assert f"{wrong}/double__drops_the_sign.py:1: the wrong answer's docstring must say on its first line what it " \
           "gets wrong and, after 'Violates:', the statement's sentence it violates" in found
    assert f"{wrong}/triple__off_by_one.py: a wrong answer for an exercise exercises.yml does not declare: 'triple'" \
           in found
    assert len(found) == 3


def test_a_catalog_beside_the_code_is_checked_like_the_tools(tmp_path, monkeypatch):
    """sitegen/, matrix/, deploy/ and audit/ keep their own messages.yml: dev check finds a missing language there."""
    from celerylab.authoring import catalogs

    package = tmp_path / "celerylab"
    (package / "sitegen").mkdir(parents=True)
    (package / "sitegen" / "messages.yml").write_text('site.x:\n  pt: "só {n}"\n  en: "only {m}"\nsite.y:\n  pt: "a"\n')
    (package / "lessons" / "l01_a").mkdir(parents=True)
    (package / "lessons" / "l01_a" / "messages.yml").write_text('l01.x:\n  pt: "a"\n  en: "a"\n')
    monkeypatch.setattr(catalogs, "PACKAGE", package)
    found = [problem.key for problem in catalogs.load(package / "lessons", []).problems
             if problem.path == package / "sitegen" / "messages.yml"]
    assert found == ["dev.p.placeholders", "dev.p.catalog_langs"]
