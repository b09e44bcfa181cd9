"""`celerylab matrix`: clear errors on bad options, a run that writes the claims' results, a check that finds a change."""
from __future__ import annotations

import argparse
import json

import pytest

from celerylab.cli import main

ONE_CLAIM = ["--release", "5.7", "--lesson", "l03_silent_defects", "-k", "json_round_trip", "--jobs", "1"]


def test_unknown_lesson_and_bad_jobs_are_refused_clearly(capsys):
    assert main(["--lang", "en", "matrix", "--lesson", "l99_nope"]) == 2
    assert "Unknown lesson: l99_nope (use the folder name, e.g. l01_retries)." in capsys.readouterr().err
    with pytest.raises(SystemExit) as exit_:
        main(["--lang", "en", "matrix", "--jobs", "0"])
    assert exit_.value.code == 2 and "--jobs must be 1 or more, not 0" in capsys.readouterr().err


@pytest.mark.live
def test_a_run_writes_each_claims_result_and_check_finds_what_changed(tmp_path, capsys):
    out = tmp_path / "observed.json"
    assert main(["--lang", "en", "matrix", *ONE_CLAIM, "--out", str(out)]) == 0
    written = json.loads(out.read_text())
    [(claim, result)] = written["releases"]["5.7"]["claims"].items()
    assert claim == "l03_silent_defects::test_json_round_trip" and result["outcome"] == "passed"
    assert written["releases"]["5.7"]["versions"]["celery"] == "5.7.0"
    assert main(["--lang", "en", "matrix", *ONE_CLAIM, "--out", str(out), "--check"]) == 0
    assert "Every claim observed what observed.json records." in capsys.readouterr().err
    result["outcome"], result["observed"] = "failed", {"tampered": True}
    out.write_text(json.dumps(written))
    assert main(["--lang", "en", "matrix", *ONE_CLAIM, "--out", str(out), "--check"]) == 1
    err = capsys.readouterr().err
    assert "Celery 5.7: 1 claims observed something other than what observed.json records:" in err
    assert "recorded: does not hold · tampered=true" in err and json.loads(out.read_text()) == written


def test_a_change_that_does_not_happen_again_alone_is_named_and_not_counted(monkeypatch, capsys):
    from celerylab.commands import matrix as command
    from celerylab.matrix import run_claims
    from celerylab.matrix.releases import release

    held = {"outcome": "passed", "message": "", "observed": {"ping": True}}
    lost = {"outcome": "failed", "message": "assert False", "observed": {"ping": False}}
    scope = {"l07_resilience::test_ping": held, "l07_resilience::test_gone": held}
    found = [("l07_resilience::test_ping", held, lost), ("l07_resilience::test_gone", held, lost)]
    asked = {}

    def second_run(each, python, jobs, lessons, select):
        asked.update(jobs=jobs, lessons=lessons, select=select)
        return {"claims": {"l07_resilience::test_ping": held, "l07_resilience::test_gone": lost}}

    monkeypatch.setattr(run_claims, "run", second_run)
    still = command.confirmed(release("5.5"), "python", {"releases": {"5.5": {"claims": scope}}}, found)
    assert [claim for claim, _, _ in still] == ["l07_resilience::test_gone"]
    assert asked == {"jobs": 1, "lessons": ["l07_resilience"], "select": "test_gone or test_ping"}
    err = capsys.readouterr().err
    assert "l07_resilience::test_ping: " in err and "l07_resilience::test_gone: " not in err


def test_a_partial_run_drops_the_observations_of_a_claim_test_that_no_longer_exists(monkeypatch, tmp_path, capsys):
    """A renamed claim test: its old name's observations would fail every later `--check` of the whole lesson."""
    from celerylab.matrix import environments, run_claims

    kept = "l03_silent_defects::test_json_round_trip"
    renamed = "l03_silent_defects::test_a_name_this_test_had_before"
    held = {"outcome": "passed", "message": "", "observed": {"ping": True}}
    out = tmp_path / "observed.json"
    out.write_text(json.dumps({"python": "3.11", "releases": {"5.7": {"versions": {}, "claims": {kept: held, renamed: held}}}}))
    monkeypatch.setattr(environments, "ensure", lambda release: "python")
    monkeypatch.setattr(run_claims, "run", lambda *args, **options: {"versions": {}, "claims": {
        "l03_silent_defects::test_unserializable_return_is_a_failure": held}})
    assert main(["--lang", "en", "matrix", *ONE_CLAIM, "--out", str(out)]) == 0
    claims = json.loads(out.read_text())["releases"]["5.7"]["claims"]
    assert set(claims) == {kept, "l03_silent_defects::test_unserializable_return_is_a_failure"}


def test_a_run_records_the_lessons_digest_and_keeps_what_an_absent_service_left_unmeasured(monkeypatch, tmp_path):
    from celerylab.matrix import environments, inputs, run_claims
    from celerylab.matrix.releases import release

    claim = "l03_silent_defects::test_json_round_trip"
    held = {"outcome": "passed", "message": "", "observed": {"ping": True}}
    out = tmp_path / "observed.json"
    out.write_text(json.dumps({"python": "3.11", "releases": {"5.5": {"versions": {}, "claims": {claim: held}}}}))
    monkeypatch.setattr(environments, "ensure", lambda release: "python")
    monkeypatch.setattr(run_claims, "run", lambda *args, **options: {"versions": {}, "claims": {
        claim: {"outcome": "skipped", "message": "this machine lacks postgres", "observed": {}, "lacks": ["postgres"]}}})
    assert main(["--lang", "en", "matrix", "--release", "5.5", "--lesson", "l03_silent_defects", "--out", str(out)]) == 0
    column = json.loads(out.read_text())["releases"]["5.5"]
    assert column["claims"] == {claim: held}
    assert column["digests"] == {"l03_silent_defects": inputs.digest(run_claims.LESSONS / "l03_silent_defects",
                                                                     release("5.5"))}


def test_stale_measures_only_the_older_lines_lessons_whose_digest_changed(monkeypatch, capsys):
    from celerylab.commands import matrix as command
    from celerylab.matrix import freshness
    from celerylab.matrix.releases import RELEASES

    asked = {}

    def stale(releases):
        asked["lines"] = [each.line for each in releases]
        return [("l02_workers", "5.5"), ("l04_results", "5.5")]

    monkeypatch.setattr(freshness, "stale", stale)
    plan = command.lessons_to_run(argparse.Namespace(stale=True, release=None, lesson=None), list(RELEASES))
    assert plan == {"5.5": ["l02_workers", "l04_results"]}
    assert asked["lines"] == [each.line for each in freshness.older()]
    plan = command.lessons_to_run(argparse.Namespace(stale=True, release=["5.5"], lesson=["l04_results"]), list(RELEASES))
    assert plan == {"5.5": ["l04_results"]}
