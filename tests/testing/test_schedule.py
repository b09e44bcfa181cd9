"""The suite's xdist work units: a file each (a test each in a spread file), slow units first, then notebooks."""
from __future__ import annotations

import json

import pytest

from celerylab.testing.schedule import ordered, read_seconds, unit_of

pytest_plugins = ["pytester"]
SPREAD = frozenset({"tests/m.py"})


class Item:
    def __init__(self, nodeid: str, *marks: str):
        self.nodeid, self.marks = nodeid, set(marks)

    def get_closest_marker(self, name):
        return name if name in self.marks else None


def ids(items) -> list[str]:
    return [item.nodeid for item in items]


def test_a_module_or_notebook_is_one_unit_and_a_spread_file_one_per_test():
    assert unit_of("tests/a.py::test_x", SPREAD) == "tests/a.py"
    assert unit_of("tests/a.py::Case::test_x", SPREAD) == "tests/a.py"
    assert unit_of("notebooks/pt/01.ipynb::Cell 3", SPREAD) == "notebooks/pt/01.ipynb"
    assert unit_of("tests/m.py::test_line[5.5]", SPREAD) == "tests/m.py::test_line[5.5]"


def test_slow_units_first_then_notebooks_then_the_most_tests_and_the_cells_keep_their_order():
    items = [Item("tests/a.py::test_1"), Item("notebooks/pt/01.ipynb::Cell 0"), Item("tests/b.py::test_1"),
             Item("tests/b.py::test_2"), Item("notebooks/pt/01.ipynb::Cell 1"),
             Item("tests/m.py::test_line[5.5]", "slow"), Item("tests/m.py::test_line[5.6]", "slow"),
             Item("tests/c.py::test_quick"), Item("tests/c.py::test_slow", "slow")]
    assert ids(ordered(items, SPREAD)) == [
        "tests/c.py::test_quick", "tests/c.py::test_slow", "tests/m.py::test_line[5.5]", "tests/m.py::test_line[5.6]",
        "notebooks/pt/01.ipynb::Cell 0", "notebooks/pt/01.ipynb::Cell 1",
        "tests/b.py::test_1", "tests/b.py::test_2", "tests/a.py::test_1"]


def test_a_unit_marked_last_comes_after_every_other_even_a_slow_one():
    items = [Item("tests/d.py::test_up", "slow", "last"), Item("tests/d.py::test_down", "slow"),
             Item("tests/a.py::test_1"), Item("tests/c.py::test_slow", "slow")]
    assert ids(ordered(items, SPREAD)) == ["tests/c.py::test_slow", "tests/a.py::test_1",
                                           "tests/d.py::test_up", "tests/d.py::test_down"]


def test_recorded_seconds_put_the_longest_unit_first_whatever_its_rank():
    items = [Item("tests/c.py::test_slow", "slow"), Item("notebooks/pt/08.ipynb::Cell 0"),
             Item("tests/m.py::test_line[5.5]"), Item("tests/m.py::test_line[5.6]"), Item("tests/a.py::test_1"),
             Item("tests/d.py::test_up", "last")]
    seconds = {"notebooks/pt/08.ipynb": 200.0, "tests/c.py": 30.0, "tests/m.py::test_line[5.6]": 50.0,
               "tests/d.py": 900.0}
    assert ids(ordered(items, SPREAD, seconds)) == [
        "notebooks/pt/08.ipynb::Cell 0", "tests/m.py::test_line[5.6]", "tests/c.py::test_slow",
        "tests/m.py::test_line[5.5]", "tests/a.py::test_1", "tests/d.py::test_up"]
    # unrecorded, the ranks decide as before: the slow unit (guessed at 120 s) before the notebook (60 s)
    assert ids(ordered(items, SPREAD, {}))[:2] == ["tests/c.py::test_slow", "notebooks/pt/08.ipynb::Cell 0"]


def test_a_missing_or_broken_seconds_file_reads_as_no_record(tmp_path):
    assert read_seconds(tmp_path / "none.json") == {}
    (tmp_path / "bad.json").write_text("[1, 2", encoding="utf-8")
    assert read_seconds(tmp_path / "bad.json") == {}
    (tmp_path / "ok.json").write_text(json.dumps({"tests/a.py": 3}), encoding="utf-8")
    assert read_seconds(tmp_path / "ok.json") == {"tests/a.py": 3.0}


def test_the_same_collection_is_ordered_alike_on_every_worker():
    def make():
        return [Item(f"tests/t{n % 3}.py::test_{n}", *(["slow"] if n == 4 else [])) for n in range(9)]

    assert ids(ordered(make(), SPREAD)) == ids(ordered(make(), SPREAD))


@pytest.mark.live
def test_under_xdist_a_spread_file_runs_on_both_workers_and_a_module_on_one(pytester):
    pytester.makeini("[pytest]\ncelerylab_xdist_spread = test_spread.py\n")
    pytester.makepyfile(test_spread="""
        import time, pytest
        @pytest.mark.parametrize("n", range(4))
        def test_s(n):
            time.sleep(0.5)
        """, test_module="""
        import time
        def test_a(): time.sleep(0.5)
        def test_b(): time.sleep(0.5)
        def test_c(): time.sleep(0.5)
        """)
    result = pytester.runpytest_subprocess("-p", "celerylab.testing.schedule", "-n", "2", "--dist", "loadscope",
                                           "-p", "no:cacheprovider", "-v")
    result.assert_outcomes(passed=7)

    def on(name):
        return {line.split("]")[0] for line in result.outlines if f"PASSED {name}" in line}

    assert on("test_spread.py::") == {"[gw0", "[gw1"}, result.outlines  # its 4 tests shared by both workers
    assert len(on("test_module.py::")) == 1, result.outlines  # a module's tests on one worker


@pytest.mark.live
def test_a_run_writes_each_units_seconds_and_the_next_run_starts_the_longest_first(pytester):
    pytester.makeini("[pytest]\ncelerylab_xdist_spread = test_spread.py\ncelerylab_unit_seconds = seconds.json\n")
    pytester.makepyfile(test_few="""
        import time
        def test_long(): time.sleep(0.6)
        """, test_many="""
        def test_a(): pass
        def test_b(): pass
        def test_c(): pass
        """, test_spread="""
        import time, pytest
        @pytest.mark.parametrize("n", [0, 1])
        def test_s(n): time.sleep(0.3 * n)
        """)
    pytester.makefile(".json", seconds=json.dumps({"kept.py": 9.0}))
    args = ["-p", "celerylab.testing.schedule", "-p", "no:cacheprovider", "-n", "1", "--dist", "loadscope", "-v"]
    first = pytester.runpytest_subprocess(*args, "--write-unit-seconds", "seconds.json")
    first.assert_outcomes(passed=6)
    recorded = json.loads((pytester.path / "seconds.json").read_text(encoding="utf-8"))
    assert recorded["kept.py"] == 9.0  # a unit this run did not run keeps its record
    assert recorded["test_few.py"] >= 0.6 > recorded["test_many.py"]
    assert recorded["test_spread.py::test_s[1]"] >= 0.3 > recorded["test_spread.py::test_s[0]"]
    second = pytester.runpytest_subprocess(*args)
    ran = [line.split("PASSED ", 1)[1].strip() for line in second.outlines if "] PASSED " in line]
    assert ran[:2] == ["test_few.py::test_long", "test_spread.py::test_s[1]"], second.outlines
