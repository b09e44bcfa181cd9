"""Every table cell carries its column's header as `data-label` (phones stack wide tables by it)."""
from __future__ import annotations

import markdown


def convert(text: str) -> str:
    return markdown.markdown(text, extensions=["tables", "admonition", "celerylab.sitegen.table_labels"])


def test_each_body_cell_carries_its_header_text():
    html = convert("| caso | `prefetch_count` | maior  espera |\n|---|---|---|\n| padrão | 4 | 2.00 s |\n")
    assert '<td data-label="caso">padrão</td>' in html
    assert '<td data-label="prefetch_count">4</td>' in html  # the header's code, as its text
    assert '<td data-label="maior espera">2.00 s</td>' in html
    assert "<th data-label" not in html


def test_tables_inside_admonitions_too():
    html = convert("!!! note\n\n    | a | b |\n    |---|---|\n    | 1 | 2 |\n")
    assert '<td data-label="b">2</td>' in html
