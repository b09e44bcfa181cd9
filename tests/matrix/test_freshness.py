"""A lesson's recorded observations on a release are stale once its inputs changed and no new run recorded them."""
from __future__ import annotations

import json
import shutil

from celerylab.matrix import freshness, inputs, results
from celerylab.matrix.releases import release
from celerylab.matrix.run_claims import LESSONS

LESSON = "l03_silent_defects"


def recorded_lesson(tmp_path):
    """A lessons folder with one lesson whose 5.5 observations carry the digest of its inputs now."""
    folder = tmp_path / LESSON
    shutil.copytree(LESSONS / LESSON, folder)
    observed = json.loads((folder / results.OBSERVED_FILE).read_text())
    observed["releases"]["5.5"]["digest"] = inputs.digest(folder, release("5.5"))
    (folder / results.OBSERVED_FILE).write_text(json.dumps(observed))
    return folder


def test_a_changed_claim_without_new_observations_is_stale_and_the_report_names_the_command(tmp_path):
    folder = recorded_lesson(tmp_path)
    assert freshness.stale(tmp_path, [release("5.5")]) == []
    claim = sorted(folder.glob("test_claims_*.py"))[0]
    claim.write_text(claim.read_text().replace("assert", "assert True and", 1))
    found = freshness.stale(tmp_path, [release("5.5")])
    assert found == [(LESSON, "5.5")]
    report = freshness.report(found, "en")
    assert LESSON in report and f"celerylab matrix --release 5.5 --lesson {LESSON}" in report


def test_a_lesson_with_no_recorded_digest_is_stale(tmp_path):
    recorded_lesson(tmp_path)
    assert freshness.stale(tmp_path, [release("5.6")]) == [(LESSON, "5.6")]
