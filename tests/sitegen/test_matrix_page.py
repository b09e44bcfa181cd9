"""The site's release page: one row per claim, a column per release, differences marked and bold, rows linked."""
from __future__ import annotations

import pytest

from celerylab.matrix import results
from celerylab.matrix.catalog import Claim
from celerylab.sitegen import matrix_page

TITLES = {"03_silent_defects": "03 — Defects"}
VERSIONS = {"celery": "5.x", "kombu": "5.y", "billiard": "4.3.2", "redis": "5.2.1"}


def column(**claims):
    return {"versions": VERSIONS, "claims": {f"l03_silent_defects::{name}": {"outcome": outcome, "message": message,
                                                                            "observed": observed}
                                             for name, (outcome, observed, message) in claims.items()}}


@pytest.fixture
def matrix(monkeypatch):
    claims = {"test_same": Claim("l03_silent_defects", "test_same", "Catching any unknown key", "Igual | sempre.",
                                 "Same | always."),
              "test_moved": Claim("l03_silent_defects", "test_moved", "", "Mudou.", "Moved.")}
    monkeypatch.setattr(matrix_page, "describe", lambda claim: claims.get(claim.split("::")[1].split("[")[0]))
    monkeypatch.setattr(matrix_page, "varies", lambda claim, line: claim.endswith("test_moved") and line == "5.5")
    built = results.merge({"releases": {}}, "5.5", column(test_same=("passed", {"n": 1}, ""),
                                                          test_moved=("failed", {"runs": 2}, "assert 2 == 1"),
                                                          test_undescribed=("passed", {}, "")))
    return results.merge(built, "5.7", column(test_same=("passed", {"n": 1}, ""), test_moved=("passed", {"runs": 1}, ""),
                                              test_undescribed=("passed", {}, "")))


def test_rows_cells_marks_and_links(matrix):
    page = matrix_page.releases_page("en", TITLES, matrix)
    assert page.startswith("# What changes between Celery releases\n")
    assert "| `kombu` | 5.y | 5.y |" in page and "3 claims; 1 of them observe something different" in page
    assert "| Claim | 5.5 | 5.7 |\n|---|---|---|\n" in page
    same = "| [Same \\| always.](lessons/03_silent_defects.md#catching-any-unknown-key) | holds · n=1 | holds · n=1 |"
    moved = ("| ≠ [Moved.](lessons/03_silent_defects.md) | **does not hold · runs=2 (assert 2 == 1)** "
             "(varies from run to run on this release; this is the last observation) | holds · runs=1 |")
    assert same in page and moved in page
    assert "| `test_undescribed` | holds | holds |" in page
    changes = page.split("## Only what changes\n")[1].split("## Every claim, by lesson\n")[0]
    assert moved in changes and same not in changes and "### 03 — Defects" in page


def test_portuguese_page_links_the_portuguese_section(matrix):
    page = matrix_page.releases_page("pt", TITLES, matrix)
    assert page.startswith("# O que muda entre versões do Celery\n")
    assert "(lessons/03_silent_defects.md#como-pegar-qualquer-chave-desconhecida)" in page
    assert "**não vale · runs=2 (assert 2 == 1)**" in page


def test_without_measurements_the_page_says_how_to_make_them():
    page = matrix_page.releases_page("en", TITLES, {"releases": {}})
    assert "No measurements yet: run `celerylab matrix`." in page
