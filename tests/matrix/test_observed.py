"""The committed observations: each lesson's observed.json, one column per release line measured on its pins,
covering every claim test of that lesson and nothing of another."""
from __future__ import annotations

import json

from celerylab.authoring.claims import claim_tests
from celerylab.matrix import results
from celerylab.matrix.catalog import split_claim_id
from celerylab.matrix.releases import RELEASES
from celerylab.matrix.run_claims import LESSONS


def lesson_files():
    return sorted(LESSONS.glob(f"l[0-9]*/{results.OBSERVED_FILE}"))


def test_each_lesson_with_claims_has_its_observations_one_column_per_release_on_its_pins():
    with_claims = {folder.name for folder in LESSONS.glob("l[0-9]*") if claim_tests(folder)}
    assert {path.parent.name for path in lesson_files()} == with_claims
    for path in lesson_files():
        matrix = json.loads(path.read_text(encoding="utf-8"))
        assert list(matrix["releases"]) == [release.line for release in RELEASES], path
        for release in RELEASES:
            versions = matrix["releases"][release.line]["versions"]
            assert (versions["celery"], versions["kombu"]) == (release.celery, release.kombu), path


def test_every_claim_test_is_in_every_column_of_its_own_lesson_and_all_hold_on_the_course_release():
    for path in lesson_files():
        lesson = path.parent
        matrix = results.load(path)
        tests = {(lesson.name, name) for name in claim_tests(lesson)}
        for line, column in matrix["releases"].items():
            assert {split_claim_id(claim)[:2] for claim in column["claims"]} == tests, (lesson.name, line)
        newest = matrix["releases"][RELEASES[-1].line]["claims"]
        assert {claim: result["outcome"] for claim, result in newest.items()
                if result["outcome"] not in ("passed", "skipped")} == {}  # skipped: a parameter by design (FOR UPDATE on SQLite)


def test_the_lessons_files_read_as_one_matrix():
    matrix = results.load()
    assert list(matrix["releases"]) == [release.line for release in RELEASES]
    assert sum(len(results.load(path)["releases"][RELEASES[0].line]["claims"]) for path in lesson_files()) == \
        len(results.column_claims(matrix, RELEASES[0].line))
