"""A lesson's observation digest: its claim tests, the modules they reach, its data files and the release's pins."""
from __future__ import annotations

import shutil

from celerylab.compiler.imports import PACKAGE
from celerylab.matrix import inputs
from celerylab.matrix.releases import release
from celerylab.matrix.run_claims import LESSONS

LESSON = LESSONS / "l04_results"


def relative(paths):
    return {path.relative_to(PACKAGE).as_posix() for path in paths}


def test_the_hashed_files_are_what_the_claim_tests_run_and_not_what_only_the_page_shows():
    hashed = relative(inputs.files(LESSON))
    assert {"lessons/l04_results/test_claims_status.py", "lessons/l04_results/conftest.py",
            "lessons/l04_results/helpers.py", "lessons/l04_results/messages.yml", "stack/worker_node.py",
            "testing/claims.py", "testing/plugin.py"} <= hashed
    assert not {"lessons/l04_results/lesson.md", "lessons/l04_results/claims.yml", "lessons/l04_results/observed.json",
                "lessons/l04_results/checks.py", "matrix/results.py"} & hashed
    assert not [name for name in hashed if "wrong_answers" in name or name.startswith("lessons/l01_")]


def test_the_pins_are_the_releases_and_what_the_course_installs_but_not_the_dev_tools():
    pins = inputs.pins(release("5.5"))
    assert "celery[redis]==5.5.3" in pins and "kombu==5.5.4" in pins and "billiard==4.3.2" in pins
    assert not [pin for pin in pins if pin.startswith(("ruff==", "mypy==", "celery==", "kombu==5.7"))]


def test_a_claim_tests_change_or_another_release_changes_the_digest(tmp_path):
    folder = tmp_path / LESSON.name
    shutil.copytree(LESSON, folder)
    before = inputs.digest(folder, release("5.5"))
    assert inputs.digest(folder, release("5.5")) == before and inputs.digest(folder, release("5.6")) != before
    (folder / "lesson.md").write_text("a new page\n")
    assert inputs.digest(folder, release("5.5")) == before  # the page is not measured
    claim = folder / "test_claims_status.py"
    claim.write_text(claim.read_text() + "\n# one more line\n")
    assert inputs.digest(folder, release("5.5")) != before
