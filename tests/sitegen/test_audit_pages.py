"""The site's audit pages: every rule once, with an anchor, in both languages; each lesson page lists the rules it teaches."""
from __future__ import annotations

import re

import pytest

from celerylab.audit.registry import all_rules
from celerylab.course import Course
from celerylab.rule_lessons import shown
from celerylab.sitegen.audit_pages import lesson_rules, rules_page

TITLES = {lesson[1:]: f"Lesson {lesson[1:3]}" for lesson in Course().lesson_names()}


@pytest.mark.parametrize("lang", ["pt", "en"])
def test_every_rule_has_its_section_and_anchor_and_no_unfilled_placeholder(lang):
    page = rules_page(lang, TITLES)
    anchors = re.findall(r"^## (CL\d{3}) — .+ \{#(cl\d{3})\}$", page, re.M)
    assert [rule for rule, _ in anchors] == sorted(all_rules())
    assert all(anchor == rule.lower() for rule, anchor in anchors)
    assert not re.search(r"\{[a-z_]+\}", page)                  # placeholders are shown by name: <task>
    for item in shown():
        section = page.split(f"## {item.rule} ")[1].split("\n## ")[0]
        assert f"](lessons/{item.lesson.stem}.md" in section, item


def test_a_lesson_page_lists_and_links_the_rules_it_teaches():
    section = lesson_rules("06_architecture", "pt")
    assert section.startswith("## Encontre este problema no seu projeto")
    assert "- [CL403](../audit.md#cl403) — " in section
    assert lesson_rules("99_nothing", "en") == ""


def test_the_lesson_links_point_at_a_section_of_the_lesson_in_the_pages_language():
    pt, en = rules_page("pt", TITLES), rules_page("en", TITLES)
    assert "lessons/03_silent_defects.md#como-pegar-qualquer-chave-desconhecida" in pt
    assert "lessons/03_silent_defects.md#catching-any-unknown-key" in en
