"""Measured values in the notebook's language: decimal comma, translated booleans, sequences that stay readable."""
from __future__ import annotations

import pytest

from celerylab import localized
from celerylab.i18n import set_lang


def fake_t(key: str, **_values) -> str:
    return {"lx.bool.true": "sim" if localized.get_lang() == "pt" else "True",
            "lx.bool.false": "não" if localized.get_lang() == "pt" else "False"}[key]


@pytest.fixture(autouse=True)
def _restore_lang():
    yield
    set_lang("pt")


def test_portuguese_uses_the_decimal_comma_and_its_own_words(monkeypatch):
    monkeypatch.setattr(localized, "t", fake_t)
    set_lang("pt")
    assert localized.number(3.4) == "3,4" and localized.number(2, digits=1) == "2,0"
    assert localized.value("lx", True) == "sim" and localized.value("lx", 1.5) == "1,5"
    assert localized.value("lx", [4.0, 4.25]) == "[4,0; 4,25]"
    assert localized.value("lx", ("pending", 50, 0)) == "('pending', 50, 0)"
    assert localized.value("lx", 3) == "3" and localized.value("lx", "FAILURE") == "FAILURE"


def test_english_keeps_python_s_spelling(monkeypatch):
    monkeypatch.setattr(localized, "t", fake_t)
    set_lang("en")
    assert localized.number(3.4) == "3.4" and localized.value("lx", False) == "False"
    assert localized.value("lx", [4.0, True]) == "[4.0, True]"


def test_a_dict_of_numbers_reads_as_pairs_with_the_readers_marks(monkeypatch):
    monkeypatch.setattr(localized, "t", fake_t)
    policy = {"max_retries": 3, "interval_start": 0, "interval_step": 0.2}
    set_lang("pt")
    assert localized.value("lx", policy) == "max_retries=3; interval_start=0; interval_step=0,2"
    set_lang("en")
    assert localized.value("lx", policy) == "max_retries=3, interval_start=0, interval_step=0.2"
    assert localized.value("lx", {"queue": "celery"}) == "{'queue': 'celery'}"
