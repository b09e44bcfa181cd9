"""The committed observations: one column per release line, each with its pins, covering every claim test there is."""
from __future__ import annotations

from celerylab.authoring.claims import claim_tests
from celerylab.matrix import results
from celerylab.matrix.catalog import split_claim_id
from celerylab.matrix.releases import RELEASES
from celerylab.matrix.runner import LESSONS


def test_every_release_line_has_a_column_measured_on_its_pins():
    matrix = results.load()
    assert list(matrix["releases"]) == [release.line for release in RELEASES]
    for release in RELEASES:
        versions = matrix["releases"][release.line]["versions"]
        assert (versions["celery"], versions["kombu"]) == (release.celery, release.kombu)


def test_every_claim_test_is_in_every_column_and_all_hold_on_the_course_release():
    matrix = results.load()
    tests = {(folder.name, name) for folder in LESSONS.glob("l[0-9]*") for name in claim_tests(folder)}
    for line, column in matrix["releases"].items():
        assert {split_claim_id(claim)[:2] for claim in column["claims"]} == tests, line
    newest = matrix["releases"][RELEASES[-1].line]["claims"]
    assert {claim: result["outcome"] for claim, result in newest.items()
            if result["outcome"] not in ("passed", "skipped")} == {}  # skipped: a parameter by design (FOR UPDATE on SQLite)
