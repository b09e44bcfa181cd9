"""The lesson source parser: cells, languages, kinds, and errors that name the line."""
from __future__ import annotations

from pathlib import Path

import pytest

from celerylab.compiler.errors import SourceError
from celerylab.compiler.parser import parse, parse_file
from celerylab.i18n import set_lang

FIXTURES = Path(__file__).parent / "fixtures" / "lessons"


def test_fixture_lesson_parses():
    cells = parse_file(FIXTURES / "l99_fixture" / "lesson.md")
    assert [c.id for c in cells] == ["title", "start-stack", "add", "oops", "quiet", "recap-en", "ex-double",
                                     "check-double", "double-after", "stop-stack"]
    by_id = {c.id: c for c in cells}
    assert by_id["title"].kind == "markdown" and by_id["title"].texts["en"].startswith("# Test lesson")
    assert by_id["start-stack"].texts["pt"].endswith("# inicia um worker de verdade")
    assert by_id["add"].texts["pt"] == by_id["add"].texts["en"]
    assert by_id["recap-en"].lang == "pt" and set(by_id["recap-en"].texts) == {"pt"}
    assert by_id["ex-double"].exercise == "double" and by_id["check-double"].check == "double"
    assert by_id["oops"].tags == ["raises-exception"] and by_id["add"].part == "lesson"
    assert by_id["double-after"].part == "solutions"


CODE = "```python\nx = 1\n```"
BAD = [
    # (source, line of the error, catalog key)
    ("hello\n+++ {\"id\": \"a\"}\n" + CODE, 1, "build.err.before_first_cell"),
    ("+++ {\"id\": \"a\"}\n" + CODE + "\n\n+++ {id: 'b'}\n" + CODE, 6, "build.err.bad_json"),
    ("+++ {\"id\": \"a\", \"colour\": 1}\n" + CODE, 1, "build.err.unknown_key"),
    ("+++ {\"part\": \"all\"}\n" + CODE, 1, "build.err.bad_id"),
    ("+++ {\"id\": \"Bad_Id\"}\n" + CODE, 1, "build.err.bad_id"),
    ("+++ {\"id\": \"a\", \"part\": \"some\"}\n" + CODE, 1, "build.err.bad_value"),
    ("+++ {\"id\": \"a\", \"alt\": \"only one language\"}\n" + CODE, 1, "build.err.bad_value"),
    ("+++ {\"id\": \"a\", \"docs\": \"docs.celeryq.dev\"}\n" + CODE, 1, "build.err.bad_value"),
    ("+++ {\"id\": \"a\", \"text_lang\": \"de\"}\n" + CODE, 1, "build.err.bad_value"),
    ("+++ {\"id\": \"a\"}\n" + CODE + "\n+++ {\"id\": \"a\"}\n" + CODE, 5, "build.err.duplicate_id"),
    ("+++ {\"id\": \"a\"}\n::: pt\nOlá\n:::\n", 1, "build.err.missing_lang"),
    ("+++ {\"id\": \"a\"}\nHello, no language block\n", 1, "build.err.missing_lang"),
    ("+++ {\"id\": \"a\"}\n::: pt\nOlá\n", 2, "build.err.unclosed_block"),
    ("+++ {\"id\": \"a\"}\n::: pt\nOlá\n:::\nstray\n::: en\nHi\n:::\n", 5, "build.err.outside_block"),
    ("+++ {\"id\": \"a\"}\n::: de\nHallo\n:::\n", 2, "build.err.unknown_lang_block"),
    ("+++ {\"id\": \"a\"}\n::: pt\n```python\nx = 1\n```\n:::\n::: en\nx is one\n:::\n", 1,
     "build.err.kinds_differ"),
    ("+++ {\"id\": \"a\"}\n::: pt\n```python\nx = 1  # um\n```\n:::\n::: en\n```python\nx = 2  # one\n```\n:::\n",
     1, "build.err.code_differs"),
    ("+++ {\"id\": \"a\"}\n```python\nx = 1\n### BEGIN SOLUTION\ny = 2\n### END SOLUTION\n```\n", 4,
     "build.err.marker_outside_exercise"),
    ("+++ {\"id\": \"a\", \"exercise\": \"e\"}\n```python\n### BEGIN SOLUTION\ny = 2\n```\n", 3,
     "build.err.marker_unclosed"),
    ("+++ {\"id\": \"a\", \"exercise\": \"e\"}\n```python\n### BEGIN SOLUTION\n### BEGIN STUB\n```\n", 4,
     "build.err.marker_nested"),
    ("+++ {\"id\": \"a\", \"exercise\": \"e\"}\n```python\n### END STUB\n```\n", 3, "build.err.marker_unmatched"),
    ("+++ {\"id\": \"a\", \"exercise\": \"e\"}\n```python\n### BEGIN SOLUTION please\n```\n", 3,
     "build.err.marker_malformed"),
    ("+++ {\"id\": \"a\", \"exercise\": \"e\"}\n::: pt\nTexto\n:::\n::: en\nText\n:::\n", 1,
     "build.err.exercise_not_code"),
    ("+++ {\"id\": \"a\", \"exercise\": \"e\", \"check\": \"e\"}\n" + CODE, 1, "build.err.exercise_and_check"),
    ("+++ {\"id\": \"a\", \"lang\": \"pt\"}\n::: en\nHi\n:::\n", 1, "build.err.other_lang_block"),
    ("+++ {\"id\": \"a\"}\n\n", 1, "build.err.empty_cell"),
    ("", 1, "build.err.no_cells"),
]


@pytest.mark.parametrize("source, line, key", BAD, ids=[case[2].split(".")[-1] + f"-{i}" for i, case in enumerate(BAD)])
def test_bad_sources_name_the_line(source, line, key):
    with pytest.raises(SourceError) as raised:
        parse(source, "lesson.md")
    assert (raised.value.problem_key, raised.value.line) == (key, line)
    assert str(raised.value).startswith(f"lesson.md:{line}: ")


def test_errors_are_translated():
    with pytest.raises(SourceError) as raised:
        parse("+++ {\"id\": \"a\"}\n::: pt\nOlá\n:::\n", "x.md")
    try:
        set_lang("en")
        assert str(raised.value) == "x.md:1: missing language block: en (a text cell needs ::: pt and ::: en, or \"lang\")"
        set_lang("pt")
        assert "falta o bloco de idioma: en" in str(raised.value)
    finally:
        set_lang("pt")


def test_fences_and_blocks_nest():
    source = ("+++ {\"id\": \"doc\"}\n::: pt\nExemplo:\n\n```text\n:::\n```\n:::\n::: en\nExample\n:::\n"
              "+++ {\"id\": \"code\"}\n::: pt\n```python\nx = 1  # um\n```\n:::\n::: en\n```python\n"
              "x = 1  # one\n```\n:::\n")
    doc, code = parse(source)
    assert doc.kind == "markdown" and doc.texts["pt"] == "Exemplo:\n\n```text\n:::\n```"
    assert code.kind == "code" and code.texts == {"pt": "x = 1  # um", "en": "x = 1  # one"}


def test_site_keys_reach_the_notebook_cell_in_its_language():
    from celerylab.compiler.model import Draft
    from celerylab.compiler.steps.assemble import cell_metadata

    source = ('+++ {"id": "a", "alt": {"pt": "Barras", "en": "Bars"}, "docs": "https://docs.celeryq.dev/x", '
              '"text_lang": "en"}\n' + CODE)
    [cell] = parse(source)
    meta = cell_metadata(Draft(cell.id, cell.kind, cell.texts["pt"], cell), "pt")["celerylab"]
    assert meta == {"id": "a", "alt": "Barras", "docs": "https://docs.celeryq.dev/x", "text_lang": "en"}
    assert cell_metadata(Draft(cell.id, cell.kind, cell.texts["en"], cell), "en")["celerylab"]["alt"] == "Bars"
