"""The suite's xdist work units: a file each (a test each in a spread file), slow units first, then notebooks."""
from __future__ import annotations

import pytest

from celerylab.testing.schedule import ordered, unit_of

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
