"""pytest plugin: the suite's xdist work units (a file, or one test in a file listed as spread), slowest first."""
from __future__ import annotations

import pytest

SPREAD_INI = "celerylab_xdist_spread"
SLOW = "slow"
LAST = "last"


def unit_of(nodeid: str, spread: frozenset[str] = frozenset()) -> str:
    """The work unit of a test: the test itself in a spread file, else its file.

    A file is a module (its module-scoped fixtures, e.g. a lesson's stack, are set up once) or a notebook
    (nbval's cells run in order on one kernel). A spread file has no module-scoped fixture worth sharing, and its
    tests are long enough to be worth sharing out among the workers (the course self-check's wrong answers).
    """
    path = nodeid.split("::", 1)[0]
    return nodeid if path in spread else path


def rank(items: list) -> int:
    """0: a unit with a test marked `slow` (minutes: start it first), 1: a notebook, 2: the rest, 3: a unit marked `last`.

    `last` is for a unit that needs the machine as quiet as the suite leaves it: handed out once every other unit has
    been, it runs beside the suite's tail instead of beside its start.
    """
    if any(item.get_closest_marker(LAST) is not None for item in items):
        return 3
    if any(item.get_closest_marker(SLOW) is not None for item in items):
        return 0
    if items[0].nodeid.split("::", 1)[0].endswith(".ipynb"):
        return 1
    return 2


def ordered(items: list, spread: frozenset[str] = frozenset()) -> list:
    """The items unit by unit: slow units first, then notebooks, then the rest, `last` units at the end; more tests
    first within a rank.

    Within a unit the collection order is kept, and equal units keep theirs: every xdist worker sorts alike.
    """
    units: dict[str, list] = {}
    for item in items:
        units.setdefault(unit_of(item.nodeid, spread), []).append(item)
    order = sorted(enumerate(units.values()), key=lambda entry: (rank(entry[1]), -len(entry[1]), entry[0]))
    return [item for _, members in order for item in members]


def spread_files(config) -> frozenset[str]:
    return frozenset(config.getini(SPREAD_INI))


def pytest_addoption(parser) -> None:
    parser.addini(SPREAD_INI, type="linelist", default=[],
                  help="test files (as in node ids) whose tests are each their own xdist work unit")


class UnitScheduling:
    """xdist's loadscope, with `unit_of` as the scope and the collection's order of units kept."""

    @staticmethod
    def make(config, log):
        from xdist.scheduler import LoadScopeScheduling

        spread = spread_files(config)

        class Scheduling(LoadScopeScheduling):
            def _split_scope(self, nodeid: str) -> str:
                return unit_of(nodeid, spread)

        config.option.loadscopereorder = False  # the workers' collection is already in the order wanted
        return Scheduling(config, log)

    @pytest.hookimpl(tryfirst=True)
    def pytest_xdist_make_scheduler(self, config, log):
        return self.make(config, log) if config.getoption("dist") == "loadscope" else None


def pytest_configure(config) -> None:
    if config.pluginmanager.hasplugin("xdist") and not hasattr(config, "workerinput"):
        config.pluginmanager.register(UnitScheduling(), "celerylab-unit-scheduling")


def pytest_collection_modifyitems(config, items) -> None:
    """On an xdist worker: the units in the order `ordered` gives, which the controller hands out as it is."""
    if hasattr(config, "workerinput"):
        items[:] = ordered(items, spread_files(config))
