"""The lesson -> audit rule table the lessons' cells declare; sections keyed by cell id survive a renamed heading."""
from __future__ import annotations

import shutil

import pytest

from celerylab.authoring.claims import claim_problems
from celerylab.course import Course, Lesson
from celerylab.matrix.catalog import lesson_claims
from celerylab.rule_lessons import lesson_of, lesson_url, shown, taught_in
from celerylab.sitegen.audit_pages import section_link

OLD = {"en": "### `autoretry_for=(Exception,)`: retrying what will never work",
       "pt": "### `autoretry_for=(Exception,)`: retentar o que nunca vai dar certo"}
NEW = {"en": "### Retrying what never works, renamed", "pt": "### Retentar o que nunca dá certo, renomeado"}


@pytest.fixture
def copied(tmp_path) -> Course:
    """Lesson 01 copied into a course of its own, safe to edit."""
    root = tmp_path / "lessons"
    shutil.copytree(Course().lessons_dir / "l01_retries", root / "l01_retries",
                    ignore=shutil.ignore_patterns("__pycache__"))
    (root / "course.yml").write_text("- l01_retries\n", encoding="utf-8")
    return Course(root, root / "course.yml", tmp_path)


def test_a_renamed_heading_breaks_no_audit_link_and_no_claim(copied):
    lesson = Lesson("l01_retries", copied.lessons_dir / "l01_retries")
    [claim] = [claim for claim in lesson_claims("l01_retries", copied.lessons_dir).values() if claim.cell == "wide-run"]
    assert lesson_url("CL301", "en", copied) == "en/lessons/01_retries/#autoretry_forexception-retrying-what-will-never-work"
    assert section_link(lesson, claim.cell, "pt", "lessons") == \
        "lessons/01_retries.md#autoretry_forexception-retentar-o-que-nunca-vai-dar-certo"
    text = lesson.source.read_text(encoding="utf-8")
    assert all(heading in text for heading in OLD.values())
    lesson.source.write_text(text.replace(OLD["en"], NEW["en"]).replace(OLD["pt"], NEW["pt"]), encoding="utf-8")
    assert lesson_url("CL301", "en", copied) == "en/lessons/01_retries/#retrying-what-never-works-renamed"
    assert lesson_url("CL301", "pt", copied) == "lessons/01_retries/#retentar-o-que-nunca-da-certo-renomeado"
    assert lesson_of("CL301", copied) == "l01_retries"
    assert section_link(lesson, claim.cell, "pt", "lessons") == "lessons/01_retries.md#retentar-o-que-nunca-da-certo-renomeado"
    assert claim_problems(lesson.folder) == []


def test_a_source_that_does_not_parse_declares_nothing(copied):
    source = copied.lessons_dir / "l01_retries" / "lesson.md"
    source.write_text(source.read_text(encoding="utf-8").replace('"audit": ["CL301"]', '"audit": "CL301"'), encoding="utf-8")
    assert lesson_url("CL301", "en", copied) == ""  # `celerylab dev check` names the line


def test_a_rule_shown_again_lists_both_lessons_and_links_findings_to_the_teaching_one():
    again = [item for item in shown() if item.rule == "CL403"]
    assert [(item.lesson.name, item.first) for item in again] == [("l06_architecture", True), ("l02_workers", False)]
    assert lesson_of("CL403") == "l06_architecture" and "CL403" in taught_in("l02_workers")
    assert lesson_url("CL403", "en").startswith("en/lessons/06_architecture/#")
