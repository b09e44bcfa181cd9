"""The site's release page: each claim full width and linked, a short status per release, differences bold, details folded."""
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
    claims = {"test_same": Claim("l03_silent_defects", "test_same", "s1-unknown-intro", "Igual | sempre.",
                                 "Same | always."),
              "test_moved": Claim("l03_silent_defects", "test_moved", "", "Mudou.", "Moved.")}
    monkeypatch.setattr(matrix_page, "describe", lambda claim: claims.get(claim.split("::")[1].split("[")[0]))
    monkeypatch.setattr(matrix_page, "varies", lambda claim, line: claim.endswith("test_moved") and line == "5.5")
    built = results.merge({"releases": {}}, "5.5", column(test_same=("passed", {"n": 1}, ""),
                                                          test_moved=("failed", {"runs": 2}, "assert 2 == 1"),
                                                          test_undescribed=("passed", {}, "")))
    return results.merge(built, "5.7", column(test_same=("passed", {"n": 1}, ""), test_moved=("passed", {"runs": 1}, ""),
                                              test_undescribed=("passed", {}, "")))


def test_each_claim_full_width_a_short_status_per_release_and_details_folded(matrix):
    page = matrix_page.releases_page("en", TITLES, matrix)
    assert page.startswith("# What changes between Celery releases\n")
    assert "| `kombu` | 5.y | 5.y |" in page and "3 claims; 1 of them observe something different" in page
    fold = '\n\n<details class="cl-observed" data-search-exclude markdown="1">\n<summary markdown="span">'
    same = ("[Same \\| always.](lessons/03_silent_defects.md#catching-any-unknown-key)"
            + fold + "5.5 ✔ holds · 5.7 ✔ holds</summary>\n")
    moved = "≠ [Moved.](lessons/03_silent_defects.md)" + fold + "5.5 **✘ does not hold ≈** · 5.7 ✔ holds</summary>\n"
    assert same in page and moved in page
    details = ("\n- **Celery 5.5**: does not hold · runs=2 (assert 2 == 1) "
               "(varies from run to run on this release; this is the last observation)\n"
               "- **Celery 5.7**: holds · runs=1\n\n</details>\n")
    assert details in page
    assert "`test_undescribed`" + fold + "5.5 ✔ holds · 5.7 ✔ holds</summary>" in page
    assert "| Claim |" not in page  # no table squeezes the claim into a column
    changes = page.split("## Only what changes\n")[1].split("## Every claim, by lesson\n")[0]
    assert moved in changes and same not in changes and "### 03 — Defects" in page


def test_portuguese_page_links_the_portuguese_section(matrix):
    page = matrix_page.releases_page("pt", TITLES, matrix)
    assert page.startswith("# O que muda entre versões do Celery\n")
    assert "(lessons/03_silent_defects.md#como-pegar-qualquer-chave-desconhecida)" in page
    assert "5.5 **✘ não vale ≈** · 5.7 ✔ vale" in page and "não vale · runs=2 (assert 2 == 1)" in page


def test_without_measurements_the_page_says_how_to_make_them():
    page = matrix_page.releases_page("en", TITLES, {"releases": {}})
    assert "No measurements yet: run `celerylab matrix`." in page
