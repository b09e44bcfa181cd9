"""A Pygments filter for the site's code blocks: tokens the theme paints in the code's own colour carry no <span>."""
from __future__ import annotations

from pygments.filter import Filter
from pygments.token import Generic, Name, Text, Whitespace

# Material colours `.n` (plain names) with --md-code-hl-name-color, which is the code's foreground colour; `.w` and
# the outputs' `.go` (celerylab.css) look like plain text too. A lesson page had 1,000 such spans of 3,700 nodes.
UNCOLOURED = frozenset({Name, Whitespace, Text.Whitespace, Generic.Output})


class PlainText(Filter):
    """Turn the uncoloured token types into plain text, which the HTML formatter writes without a span."""

    def filter(self, lexer, stream):
        for kind, value in stream:
            yield (Text if kind in UNCOLOURED else kind), value


PLAIN_TEXT = PlainText()  # mkdocs.yml names this instance in pymdownx.highlight's extend_pygments_lang
