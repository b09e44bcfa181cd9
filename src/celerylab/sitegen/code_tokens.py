"""A Pygments filter for the site's code blocks: tokens painted in (or near) the code's own colour carry no <span>."""
from __future__ import annotations

from pygments.filter import Filter
from pygments.token import Generic, Name, Operator, Punctuation, Text, Whitespace

# Material paints plain names (`.n`) in the code's foreground colour, and `.w` and the outputs' lines (`.go`) look
# like plain text too; punctuation and symbolic operators (`.p`, `.o`) only a shade of grey lighter. Keywords,
# word operators (`in`, `not`), strings, numbers, builtins, definitions and comments keep their colours. Lesson 01
# had 3,700 DOM nodes, 2,000 of them such spans; laying them out was most of its blocking time on a phone.
UNCOLOURED = frozenset({Name, Whitespace, Text.Whitespace, Generic.Output, Punctuation, Operator})


class PlainText(Filter):
    """Turn the uncoloured token types into plain text, which the HTML formatter writes without a span."""

    def filter(self, lexer, stream):
        for kind, value in stream:
            yield (Text if kind in UNCOLOURED else kind), value


PLAIN_TEXT = PlainText()  # mkdocs.yml names this instance in pymdownx.highlight's extend_pygments_lang
