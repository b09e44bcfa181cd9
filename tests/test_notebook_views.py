"""The lessons' shared printing: translated facts, aligned tables without trailing spaces, a task's real source."""
from __future__ import annotations

from celerylab import notebook_views


def greet(name: str) -> str:
    """Not printed."""
    return f"hi {name}"


def fake_t(key: str, **_values) -> str:
    return {"lx.col.case": "Case", "lx.col.n": "Runs", "lx.case.two": "two Beats", "lx.fact.runs": "runs"}[key]


def test_table_aligns_translated_headers_and_values(monkeypatch, capsys):
    monkeypatch.setattr(notebook_views, "t", fake_t)
    notebook_views.table("lx", [{"case": "two", "n": 12}, {"case": "two", "n": 3}], ["case", "n"], translated=("case",))
    assert capsys.readouterr().out.splitlines() == ["Case       Runs", "two Beats  12", "two Beats  3"]


def test_facts_and_source(monkeypatch, capsys):
    monkeypatch.setattr(notebook_views, "t", fake_t)
    notebook_views.facts("lx", runs=2)
    notebook_views.source(greet)
    out = capsys.readouterr().out
    assert out.startswith("runs: 2\ndef greet") and "Not printed" not in out and 'return f"hi {name}"' in out


def test_values_read_in_the_notebooks_language(capsys):
    from celerylab.i18n import set_lang

    try:
        for lang, expected in (("pt", "pronto: sim · 0,5 · 3"), ("en", "pronto: True · 0.5 · 3")):
            set_lang(lang)
            assert " · ".join(notebook_views.shown(v) for v in (True, 0.5, 3)).endswith(expected.split(": ")[1])
        set_lang("pt")
        notebook_views.table("l06", [{"stubborn": False}], ["stubborn"])
        assert capsys.readouterr().out.splitlines()[1].strip() == "não"
    finally:
        set_lang("pt")
