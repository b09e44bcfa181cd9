"""Language blocks, code fences and the comment-blind comparison of pt/en code."""
from __future__ import annotations

from celerylab.compiler.blocks import fenced_code, split_blocks, without_comments


def numbered(text: str):
    return list(enumerate(text.split("\n"), start=10))


def test_one_python_fence_is_code_and_anything_else_is_markdown():
    assert fenced_code(numbered("```python\nx = 1\n```")) == [(11, "x = 1")]
    assert fenced_code(numbered("````python\n```\n````")) == [(11, "```")]
    assert fenced_code(numbered("```python\nx = 1\n```\nmore text")) is None
    assert fenced_code(numbered("```text\nx = 1\n```")) is None
    assert fenced_code(numbered("Just text")) is None


def test_blocks_keep_line_numbers_and_ignore_closers_inside_fences():
    found = split_blocks(numbered("::: pt\n```text\n:::\n```\n:::\n\n::: en\nHi\n:::"), "f", ("pt", "en"))
    assert found == {"pt": [(11, "```text"), (12, ":::"), (13, "```")], "en": [(17, "Hi")]}
    assert split_blocks(numbered("\nplain\n"), "f", ("pt", "en")) == {None: [(11, "plain")]}


def test_comments_do_not_count_but_code_does():
    assert without_comments("x = 1  # um\n# só pt\n") == without_comments("x = 1  # one\n")
    assert without_comments("%%writefile a.py\nx = '#'\n") != without_comments("%%writefile a.py\nx = ''\n")
    assert without_comments("x = 1\n") != without_comments("x = 2\n")
