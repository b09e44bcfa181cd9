"""The observations file: columns merged in release order, differences found by outcome and observed values."""
from __future__ import annotations

import json

import pytest

from celerylab.matrix import results


def column(**claims):
    return {"versions": {"celery": "x"}, "claims": {name: {"outcome": outcome, "message": "", "observed": observed}
                                                    for name, (outcome, observed) in claims.items()}}


def test_merge_orders_columns_by_release_and_replaces_a_line():
    matrix = results.merge({"releases": {}}, "5.7", column(a=("passed", {"n": 1})))
    matrix = results.merge(matrix, "5.5", column(a=("failed", {"n": 2})))
    matrix = results.merge(matrix, "5.7", column(a=("passed", {"n": 3})))
    assert list(matrix["releases"]) == ["5.5", "5.7"]
    assert results.cell(matrix, "5.7", "a")["observed"] == {"n": 3}
    assert results.differs_across(matrix, "a")


def test_differences_see_outcome_observed_and_missing_claims_but_not_the_wording():
    committed = {"releases": {"5.5": column(same=("passed", {"n": 1}), moved=("passed", {"n": 1}),
                                            gone=("passed", {}))}}
    committed["releases"]["5.5"]["claims"]["same"]["message"] = "old wording"
    run = column(same=("passed", {"n": 1}), moved=("passed", {"n": 2}), new=("failed", {}))
    found = {claim: (before, after) for claim, before, after in results.differences(committed, run, "5.5")}
    assert sorted(found) == ["gone", "moved", "new"]
    assert found["gone"][1] is None and found["new"][0] is None


def test_save_and_load_round_trip(tmp_path):
    path = tmp_path / "observed.json"
    assert results.load(path) == {"python": "", "releases": {}}
    matrix = results.merge({"releases": {}}, "5.6", column(a=("passed", {"when": "é"})))
    results.save(matrix, path)
    assert results.load(path) == matrix and results.claim_ids(matrix) == ["a"]


def test_a_claim_that_varies_on_a_release_is_not_compared_there(monkeypatch):
    from celerylab.matrix import catalog

    monkeypatch.setattr(catalog, "varies", lambda claim, line: claim == "racy" and line == "5.5")
    committed = {"releases": {"5.5": column(racy=("passed", {"n": 1})), "5.6": column(racy=("passed", {"n": 1}))}}
    assert results.differences(committed, column(racy=("failed", {"n": 0})), "5.5") == []
    assert [claim for claim, *_ in results.differences(committed, column(racy=("failed", {"n": 0})), "5.6")] == ["racy"]
    assert [claim for claim, *_ in results.differences(committed, column(), "5.5")] == ["racy"]  # gone is still a change


def test_a_lessons_folder_keeps_each_lessons_claims_in_its_own_file(tmp_path):
    for name in ("l01_a", "l02_b"):
        (tmp_path / name).mkdir()
    both = column(**{"l01_a::test_x": ("passed", {"n": 1}), "l02_b::test_y": ("failed", {"n": 2}),
                     "l09_gone::test_z": ("passed", {})})
    matrix = results.merge(results.merge({"releases": {}}, "5.7", both), "5.5", both)
    written = results.save(matrix, tmp_path)
    assert written == [tmp_path / "l01_a" / "observed.json", tmp_path / "l02_b" / "observed.json"]  # no folder, no file
    own = json.loads((tmp_path / "l02_b" / "observed.json").read_text(encoding="utf-8"))
    assert list(own["releases"]) == ["5.5", "5.7"]
    assert list(own["releases"]["5.5"]["claims"]) == ["l02_b::test_y"] and own["releases"]["5.5"]["versions"] == {"celery": "x"}
    assert (tmp_path / "l02_b" / "observed.json").read_text(encoding="utf-8").startswith('{\n "python"')  # indent=1
    loaded = results.load(tmp_path)
    assert results.claim_ids(loaded) == ["l01_a::test_x", "l02_b::test_y"] and list(loaded["releases"]) == ["5.5", "5.7"]
    changed = results.merge(matrix, "5.5", column(**{"l01_a::test_x": ("failed", {"n": 0})}))
    assert results.save(changed, tmp_path, lessons=["l01_a"]) == [tmp_path / "l01_a" / "observed.json"]
    assert json.loads((tmp_path / "l02_b" / "observed.json").read_text(encoding="utf-8")) == own  # untouched


def test_a_claim_skipped_for_an_absent_service_is_neither_a_difference_nor_an_observation():
    committed = {"releases": {"5.5": column(**{"l08::test_q": ("passed", {"ready": 1}), "l08::test_r": ("passed", {})})}}
    run = column(**{"l08::test_q": ("skipped", {}), "l08::test_r": ("skipped", {}), "l08::test_new": ("skipped", {})})
    for claim in run["claims"]:
        run["claims"][claim]["lacks"] = ["rabbitmq-server"]
    run["claims"]["l08::test_r"].pop("lacks")  # skipped by the test itself: a difference like any other
    assert [claim for claim, _, _ in results.differences(committed, run, "5.5")] == ["l08::test_r"]
    assert results.unmeasured(run) == {"l08::test_q": ["rabbitmq-server"], "l08::test_new": ["rabbitmq-server"]}
    kept = results.measured(run, results.column_claims(committed, "5.5"))["claims"]
    assert kept["l08::test_q"] == committed["releases"]["5.5"]["claims"]["l08::test_q"]  # what it recorded stays
    assert "l08::test_new" not in kept and kept["l08::test_r"]["outcome"] == "skipped"


def test_each_lessons_digest_goes_to_its_own_file_and_comes_back(tmp_path):
    (tmp_path / "l01_a").mkdir()
    (tmp_path / "l02_b").mkdir()
    run = column(**{"l01_a::test_x": ("passed", {}), "l02_b::test_y": ("passed", {})})
    run["digests"] = {"l01_a": "aaaa", "l02_b": "bbbb"}
    results.save(results.merge({"releases": {}}, "5.5", run), tmp_path)
    assert json.loads((tmp_path / "l02_b" / results.OBSERVED_FILE).read_text())["releases"]["5.5"]["digest"] == "bbbb"
    again = results.load(tmp_path)
    assert results.digest_of(again, "5.5", "l01_a") == "aaaa" and results.digest_of(again, "5.5", "l02_b") == "bbbb"


LESSON_NEEDING_RABBITMQ = """+++ {"id": "title"}
::: pt
# Título
:::
::: en
# Title
:::

+++ {"id": "rabbit", "needs": ["rabbitmq"]}
```python
print("on RabbitMQ")
```
"""


@pytest.mark.parametrize("rabbitmq_here", [False, True])
def test_a_claim_that_skipped_itself_where_its_lesson_lacks_a_need_is_unmeasured(tmp_path, monkeypatch, rabbitmq_here):
    from celerylab import machine_needs

    (tmp_path / "l02").mkdir()
    (tmp_path / "l02" / "lesson.md").write_text(LESSON_NEEDING_RABBITMQ, encoding="utf-8")
    monkeypatch.setattr(machine_needs, "available", lambda need: rabbitmq_here or need != "rabbitmq")
    skipped = {"outcome": "skipped", "message": "amqp://...: refused", "observed": {}}
    run = {"claims": {"l02::test_requeue": skipped, "l03::test_other": skipped,
                      "l02::test_ran": {"outcome": "passed", "message": "", "observed": {"n": 1}}}}
    recorded = {"l02::test_requeue": {"outcome": "passed", "message": "", "observed": {"n": 2}}}
    expected = {"releases": {"5.5": {"claims": {**recorded, "l03::test_other": recorded["l02::test_requeue"]}}}}
    changed = [claim for claim, _, _ in results.differences(expected, run, "5.5", lessons=tmp_path)]
    if rabbitmq_here:
        assert results.unmeasured(run, tmp_path) == {}
        assert changed == ["l02::test_ran", "l02::test_requeue", "l03::test_other"]
    else:
        assert results.unmeasured(run, tmp_path) == {"l02::test_requeue": ["rabbitmq"]}
        assert changed == ["l02::test_ran", "l03::test_other"]  # the lesson without the need is still compared
        assert results.measured(run, recorded, tmp_path)["claims"]["l02::test_requeue"] == recorded["l02::test_requeue"]
