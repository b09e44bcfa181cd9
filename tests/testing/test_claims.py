"""Claim tests as measurements: outcomes and observed values written per claim id, with and without xdist."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from celerylab.testing.claims import plain

CLAIMS = '''
import datetime
import pytest

def test_holds(observe):
    observe(runs=1, state="PENDING", when=datetime.date(2026, 1, 2))
    assert True

def test_differs(observe):
    observe(runs=2)
    assert 2 == 1

@pytest.mark.parametrize("n", [1, 2])
def test_param(observe, n):
    observe(n=n)

def test_unobserved():
    pytest.skip("needs RabbitMQ")

def test_asserted(observe):
    observe.equal(runs=(3, 3))
    observe.that(back=False, why="gap 4.2 s")
'''


@pytest.mark.parametrize("workers", ["0", "2"])
def test_claims_json_keeps_each_claims_outcome_and_observations(tmp_path, workers):
    lesson = tmp_path / "l99_fixture"
    lesson.mkdir()
    (lesson / "test_claims_fixture.py").write_text(CLAIMS)
    (lesson / "test_other.py").write_text("def test_not_a_claim():\n    pass\n")
    out = tmp_path / "out" / "claims.json"
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", workers,
                           "-p", "celerylab.testing.claims", f"--claims-json={out}", str(lesson)],
                          cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    body = json.loads(out.read_text())
    assert body["versions"]["celery"].startswith("5.")
    claims = body["claims"]
    assert sorted(claims) == ["l99_fixture::test_asserted", "l99_fixture::test_differs", "l99_fixture::test_holds",
                              "l99_fixture::test_param[1]", "l99_fixture::test_param[2]",
                              "l99_fixture::test_unobserved"]
    assert claims["l99_fixture::test_holds"] == {"outcome": "passed", "message": "",
                                                 "observed": {"runs": 1, "state": "PENDING",
                                                              "when": "datetime.date(2026, 1, 2)"}}
    differs = claims["l99_fixture::test_differs"]
    assert differs["outcome"] == "failed" and differs["observed"] == {"runs": 2} and "assert 2 == 1" in differs["message"]
    assert claims["l99_fixture::test_param[2]"]["observed"] == {"n": 2}
    # a failing recording assert keeps what it recorded, and its first line names the condition
    assert claims["l99_fixture::test_asserted"] == {"outcome": "failed",
                                                    "message": "AssertionError: back is False: gap 4.2 s",
                                                    "observed": {"runs": 3, "back": False}}
    assert claims["l99_fixture::test_unobserved"]["outcome"] == "skipped"
    assert "needs RabbitMQ" in claims["l99_fixture::test_unobserved"]["message"]


def test_plain_keeps_json_and_reprs_the_rest():
    assert plain({1: (True, None, 1.5, "x")}) == {"1": [True, None, 1.5, "x"]}
    assert plain(ValueError("bad")) == "ValueError('bad')"


def test_claims_check_fails_the_run_only_when_a_claim_observes_other_than_recorded(tmp_path):
    from celerylab.matrix.releases import RELEASES

    lesson = tmp_path / "l99_fixture"
    lesson.mkdir()
    (lesson / "test_claims_fixture.py").write_text("def test_holds(observe):\n    observe(runs=1)\n")
    observed = lesson / "observed.json"  # the lesson's own, in the lessons folder given
    line = next(release.line for release in RELEASES if release.is_installed())

    def run_with(recorded_runs):
        observed.write_text(json.dumps({"releases": {line: {"versions": {}, "claims": {"l99_fixture::test_holds": {
            "outcome": "passed", "message": "", "observed": {"runs": recorded_runs}}}}}}))
        return subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                               "-p", "celerylab.testing.claims", f"--claims-check={tmp_path}", str(lesson)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)

    assert run_with(1).returncode == 0
    changed = run_with(2)
    assert changed.returncode == 1, changed.stdout
    assert "claims that observed other than observed.json records" in changed.stdout
    assert "recorded: holds · runs=2" in changed.stdout and "now:      holds · runs=1" in changed.stdout


def test_only_tests_in_a_lesson_folder_are_claims(tmp_path):
    folder = tmp_path / "authoring"
    folder.mkdir()
    (folder / "test_claims_check.py").write_text("def test_a_tool_test(observe):\n    observe(n=1)\n")
    out = tmp_path / "claims.json"
    subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                    "-p", "celerylab.testing.claims", f"--claims-json={out}", str(folder)],
                   cwd=tmp_path, capture_output=True, text=True, timeout=120, check=True)
    assert json.loads(out.read_text())["claims"] == {}


def test_a_claim_skipped_for_a_service_the_machine_lacks_names_it_and_another_skip_does_not(tmp_path):
    """What `celerylab matrix` needs to keep a recorded observation instead of writing a skip over it."""
    import os

    lesson = tmp_path / "l99_fixture"
    lesson.mkdir()
    (lesson / "test_claims_fixture.py").write_text(
        "import pytest\n\n@pytest.mark.needs('rabbitmq')\ndef test_on_rabbitmq(observe):\n    observe(ran=True)\n\n"
        "def test_skipped_by_design():\n    pytest.skip('FOR UPDATE needs PostgreSQL')\n")
    out = tmp_path / "claims.json"
    env = {name: value for name, value in os.environ.items() if name != "CI"}
    env["CELERYLAB_TEST_RABBITMQ"] = "amqp://guest:guest@127.0.0.1:1//"  # nothing listens on port 1
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                           "-p", "celerylab.testing.plugin", "-p", "celerylab.testing.claims", f"--claims-json={out}",
                           str(lesson)], cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    claims = json.loads(out.read_text())["claims"]
    assert claims["l99_fixture::test_on_rabbitmq"]["outcome"] == "skipped"
    assert claims["l99_fixture::test_on_rabbitmq"]["lacks"] == ["rabbitmq"]
    assert claims["l99_fixture::test_skipped_by_design"] == {"outcome": "skipped", "observed": {},
                                                             "message": "FOR UPDATE needs PostgreSQL"}



@pytest.mark.parametrize("rabbitmq_answers", [False, True])
def test_a_claim_that_skips_itself_in_a_lesson_needing_what_the_machine_lacks_is_not_measured(tmp_path,
                                                                                             rabbitmq_answers):
    """Lesson 02's RabbitMQ claim finds no RabbitMQ at run time (no `needs` marker): on a machine without the
    RabbitMQ its lesson.md declares, it was not measured and the claims check passes; where one answers, its skip
    is a difference. (The folder is named after lesson 02: the check reads the course's lesson.md of that name.)"""
    import os
    import socket

    from celerylab.matrix.releases import RELEASES

    lesson = tmp_path / "l02_workers"
    lesson.mkdir()
    (lesson / "test_claims_fixture.py").write_text(
        "import pytest\n\ndef test_requeues_on_rabbitmq(observe):\n    pytest.skip('amqp://...: refused')\n")
    line = next(release.line for release in RELEASES if release.is_installed())
    (lesson / "observed.json").write_text(json.dumps({"releases": {line: {"versions": {}, "claims": {
        "l02_workers::test_requeues_on_rabbitmq": {"outcome": "passed", "message": "", "observed": {}}}}}}))
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        port = listener.getsockname()[1] if rabbitmq_answers else 1  # nothing listens on port 1
        env = {name: value for name, value in os.environ.items() if name != "CI"}
        env["CELERYLAB_TEST_RABBITMQ"] = f"amqp://guest:guest@127.0.0.1:{port}//"
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0",
                               "-p", "celerylab.testing.plugin", "-p", "celerylab.testing.claims",
                               f"--claims-check={tmp_path}", str(lesson)],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120, env=env)
    assert "1 skipped" in done.stdout, done.stdout + done.stderr
    if rabbitmq_answers:
        assert done.returncode == 1 and "claims that observed other than observed.json records" in done.stdout
    else:
        assert done.returncode == 0, done.stdout + done.stderr
