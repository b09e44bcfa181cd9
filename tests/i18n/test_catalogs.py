"""Every message exists in Portuguese and English, with the same placeholders."""
from __future__ import annotations

import pytest

from celerylab.i18n import LANGS, catalog, normalize, placeholders, t


def test_every_message_has_both_languages_and_same_placeholders():
    problems = []
    for key, texts in catalog().items():
        if set(texts) != set(LANGS):
            problems.append(f"{key}: languages {sorted(texts)}")
        elif placeholders(texts["pt"]) != placeholders(texts["en"]):
            problems.append(f"{key}: placeholders differ")
    assert problems == []


def test_language_selection():
    assert normalize("en_US.UTF-8") == "en"
    assert normalize("pt-BR") == "pt"
    assert normalize(None) == "pt"
    assert t("cli.interrupted", lang="en") == "Interrupted."


def test_unknown_key_is_an_error():
    with pytest.raises(KeyError):
        t("no.such.key")
