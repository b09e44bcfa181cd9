"""Accessibility fixes on each built page that the theme's templates leave out: the search dialog's name."""
from __future__ import annotations

import html
import re

SEARCH_DIALOG = re.compile(r'(<div class="md-search" data-md-component="search" role="dialog")(?![^>]*aria-label)')
SEARCH_INPUT_LABEL = re.compile(r'<input[^>]*class="md-search__input"[^>]*aria-label="([^"]*)"')


def name_search_dialog(page_html: str) -> str:
    """Give Material's search `role="dialog"` an accessible name: its own input's label, in the page's language."""
    label = SEARCH_INPUT_LABEL.search(page_html)
    if not label:
        return page_html
    name = html.escape(html.unescape(label.group(1)), quote=True)
    return SEARCH_DIALOG.sub(lambda match: f'{match.group(1)} aria-label="{name}"', page_html, count=1)
