"""`celerylab dev check` on claims.yml: every claim test described in pt and en, at a cell lesson.md has."""
from __future__ import annotations

from celerylab.authoring.course_check import check_course
from celerylab.course import Course

CLAIMS = ("import pytest\n\nfrom celerylab.lessons.l42_demo.experiments.echo import echo\n\n\n"
          "def test_echo_returns_its_input(stack):\n    echo(stack, 'a')\n\n\n"
          "def test_echo_twice(stack):\n    echo(stack, 'b')\n")


def problems(lessons) -> list[str]:
    report = check_course(Course.at(lessons), root=lessons.parent / "out", freshness=False)
    return [problem.render() for problem in report.problems]


def test_every_claim_test_is_described_once_in_both_languages_at_a_real_cell(lessons):
    folder = lessons / "l42_demo"
    assert problems(lessons) == []  # the scaffold's claim test is described
    (folder / "claims.yml").unlink()
    (folder / "test_claims_demo.py").write_text(CLAIMS, encoding="utf-8")
    found = problems(lessons)
    assert len(found) == 2 and all("has no entry in claims.yml" in p and "test_claims_demo.py" in p for p in found)
    (folder / "claims.yml").write_text(
        "test_echo_returns_its_input: {cell: ex1-text, pt: 'O eco devolve a entrada.', en: 'Echo returns its input.'}\n"
        "test_echo_twice: {cell: no-such-cell, pt: 'Duas vezes.', en: '', section: Exercise}\n"
        "test_gone: {pt: a, en: a}\n", encoding="utf-8")
    found = "\n".join(problems(lessons))
    assert "the claim test_echo_twice needs a sentence in pt and one in en" in found
    assert "the claim test_echo_twice points at the cell “no-such-cell”, which lesson.md does not have" in found
    assert "the claim test_echo_twice has keys claims.yml does not read: section (it reads cell, pt, en, varies, no_experiment)" in found
    assert "claims.yml describes test_gone, which is not a claim test of this lesson" in found
    assert "test_echo_returns_its_input" not in found
    (folder / "claims.yml").write_text(
        "test_echo_returns_its_input: {cell: ex1-text, pt: 'O eco devolve a entrada.', en: 'Echo returns its input.'}\n"
        "test_echo_twice: {cell: '', pt: 'Duas vezes.', en: 'Twice.'}\n", encoding="utf-8")
    assert problems(lessons) == []
    (folder / "claims.yml").write_text("- not: a mapping\n", encoding="utf-8")
    [problem] = problems(lessons)
    assert "claims.yml cannot be read: list" in problem
    (folder / "claims.yml").write_text("test_echo_twice: [unclosed\n", encoding="utf-8")
    [problem] = problems(lessons)  # reported once, and the release check of the same file does not raise
    assert "claims.yml cannot be read:" in problem


def test_varies_names_only_release_lines_of_the_matrix(lessons):
    folder = lessons / "l42_demo"
    (folder / "test_claims_demo.py").write_text(CLAIMS, encoding="utf-8")
    (folder / "claims.yml").write_text(
        "test_echo_returns_its_input: {pt: a, en: a, varies: ['5.5']}\n"
        "test_echo_twice: {pt: b, en: b, varies: ['4.4']}\n", encoding="utf-8")
    [problem] = problems(lessons)
    assert "the claim test_echo_twice says it varies on 4.4, which are not release lines of the matrix (5.5, 5.6, 5.7)" \
        in problem


def test_a_claim_that_differs_across_releases_needs_its_section_to_say_since_when(lessons):
    from celerylab.authoring.claims import since_problems

    folder = lessons / "l42_demo"
    (folder / "test_claims_demo.py").write_text(CLAIMS, encoding="utf-8")
    (folder / "claims.yml").write_text("test_echo_returns_its_input: {cell: ex1-answer, pt: a, en: a}\n"
                                       "test_echo_twice: {pt: b, en: b}\n", encoding="utf-8")

    def run(outcome_55):
        return {"versions": {}, "claims": {"l42_demo::test_echo_returns_its_input": {"outcome": outcome_55, "message": "",
                                                                                     "observed": {}},
                                           "l42_demo::test_echo_twice": {"outcome": "passed", "message": "",
                                                                         "observed": {}}}}

    matrix = {"releases": {"5.5": run("failed"), "5.7": run("passed")}}
    [problem] = since_problems(folder, matrix)
    assert "test_echo_returns_its_input observes different things across Celery releases" in problem.render()
    assert "the section “Exercise” does not say since which release" in problem.render()
    source = (folder / "lesson.md").read_text(encoding="utf-8")
    source = source.replace("e confere o que a tarefa devolve.", "e confere o que a tarefa devolve (desde o Celery 5.7).")
    (folder / "lesson.md").write_text(source, encoding="utf-8")
    assert len(since_problems(folder, matrix)) == 1  # Portuguese alone is not enough
    source = source.replace("and checks what the task returns.", "and checks what the task returns (since Celery 5.7).")
    (folder / "lesson.md").write_text(source, encoding="utf-8")
    assert since_problems(folder, matrix) == []
    assert since_problems(folder, {"releases": {"5.5": run("passed"), "5.7": run("passed")}}) == []


def test_a_cells_audit_key_names_a_known_rule_taught_by_one_lesson(lessons):
    from .conftest import edit

    source = lessons / "l42_demo" / "lesson.md"
    edit(source, '+++ {"id": "ex1-text", "part": "all"}', '+++ {"id": "ex1-text", "part": "all", "audit": ["CL999"]}')
    [problem] = problems(lessons)
    assert "cell ex1-text declares rule CL999, which `celerylab audit` does not have" in problem
    edit(source, '"audit": ["CL999"]', '"audit": ["CL301"]')
    assert problems(lessons) == []
    from celerylab.authoring.scaffold import new_lesson

    new_lesson("43", "other", lessons / "course.yml", lessons, "Outra", "Other")
    other = lessons / "l43_other" / "lesson.md"
    edit(other, '+++ {"id": "ex1-text", "part": "all"}', '+++ {"id": "ex1-text", "part": "all", "audit": ["CL301"]}')
    [problem] = problems(lessons)
    assert "l43_other/lesson.md:" in problem and "rule CL301 is already taught by l42_demo" in problem
    edit(other, '"audit": ["CL301"]', '"audit_again": ["CL301"]')
    assert problems(lessons) == []
