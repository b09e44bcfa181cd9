"""The search dialog gets an accessible name from its own input's label, once, in the page's language."""
from __future__ import annotations

from celerylab.sitegen.page_a11y import name_search_dialog

PAGE = ('<div class="md-search" data-md-component="search" role="dialog">'
        '<input type="text" class="md-search__input" name="query" aria-label="Buscar &amp; achar" placeholder="x">')


def test_the_dialog_is_named_by_its_input_label():
    named = name_search_dialog(PAGE)
    assert 'role="dialog" aria-label="Buscar &amp; achar">' in named
    assert name_search_dialog(named) == named  # a name already there stays as it is


def test_a_page_without_the_search_is_left_alone():
    assert name_search_dialog("<p>sem busca</p>") == "<p>sem busca</p>"
