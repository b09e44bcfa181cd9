"""A lesson's sections by cell id: the heading each cell sits under per language, its anchor, the rules cells declare."""
from __future__ import annotations

import pytest

from celerylab.compiler.errors import SourceError
from celerylab.compiler.parser import parse
from celerylab.compiler.sections import declared_rules, headings, section_anchor

SOURCE = """+++ {"id": "title", "audit": ["CL110"]}
::: pt
# Lição
:::
::: en
# Lesson
:::

+++ {"id": "first", "audit": ["CL301"]}
::: pt
## 1. Primeira
texto
### 1a. Detalhe
:::
::: en
## 1. First
text
### 1a. Detail
:::

+++ {"id": "code", "audit_again": ["CL201"]}
```python
x = 1
```

+++ {"id": "pt-only", "lang": "pt"}
## Só em português
"""


def test_a_cell_sits_under_its_own_first_heading_else_the_last_one_before_it_in_each_language():
    found = headings(parse(SOURCE))
    assert found["title"] == {"pt": "", "en": ""}  # the page itself: a level-1 title is no section
    assert found["first"] == {"pt": "1. Primeira", "en": "1. First"}
    assert found["code"] == {"pt": "1a. Detalhe", "en": "1a. Detail"}
    assert found["pt-only"] == {"pt": "Só em português", "en": "1a. Detail"}


def test_the_anchor_is_the_one_the_site_gives_the_heading_and_the_page_itself_has_none(tmp_path):
    source = tmp_path / "lesson.md"
    source.write_text(SOURCE, encoding="utf-8")
    assert section_anchor(source, "first", "en") == "#1-first"
    assert section_anchor(source, "code", "pt") == "#1a-detalhe"
    assert section_anchor(source, "title", "pt") == ""
    assert section_anchor(source, "no-such-cell", "pt") == ""
    assert declared_rules(source) == ({"CL110": "title", "CL301": "first"}, {"CL201": "code"})
    source.write_text(SOURCE.replace('"audit": ["CL301"]', '"audit": "CL301"'), encoding="utf-8")
    assert declared_rules(source) == ({}, {})  # does not parse: nothing declared, `dev check` says where


@pytest.mark.parametrize("value", ['"CL301"', "[]", '["cl301"]', '["CL301", 3]'])
def test_audit_takes_a_list_of_rule_ids(value):
    with pytest.raises(SourceError):
        parse(SOURCE.replace('["CL301"]', value))
