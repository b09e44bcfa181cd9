"""Code blocks carry a span only where the theme changes the colour: plain names, whitespace and outputs are text."""
from __future__ import annotations

from pygments import highlight
from pygments.formatters import HtmlFormatter
from pygments.lexers import get_lexer_by_name

from celerylab.sitegen.code_tokens import PLAIN_TEXT

SOURCE = 'result = app.send_task("x", (1,)).get(timeout=10)\nprint(len(result))\n'


def spans(html: str) -> list[str]:
    import re

    return re.findall(r'<span class="([^"]+)">', html)


def test_plain_names_and_whitespace_lose_their_span_and_the_text_stays():
    plain = highlight(SOURCE, get_lexer_by_name("python", filters=[PLAIN_TEXT]), HtmlFormatter())
    full = highlight(SOURCE, get_lexer_by_name("python"), HtmlFormatter())
    assert {"n", "p", "o"} <= set(spans(full)) and not {"n", "w", "p", "o"} & set(spans(plain))
    assert spans(plain) == ["s2", "mi", "mi", "nb", "nb"]  # builtins, strings, numbers keep their colours
    assert 'result = app.send_task(<span class="s2">' in plain and "print" in plain


def test_word_operators_and_keywords_keep_their_colour():
    html = highlight("if x not in y:\n    pass\n", get_lexer_by_name("python", filters=[PLAIN_TEXT]), HtmlFormatter())
    assert spans(html) == ["k", "ow", "ow", "k"]


def test_output_lines_are_plain_text():
    html = highlight("line 1\nline 2\n", get_lexer_by_name("output", filters=[PLAIN_TEXT]), HtmlFormatter())
    assert "go" not in spans(html) and "line 1\nline 2" in html
    assert "go" in spans(highlight("line 1\n", get_lexer_by_name("output"), HtmlFormatter()))
