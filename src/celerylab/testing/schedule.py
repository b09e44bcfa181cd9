"""pytest plugin: the suite's xdist work units (a file, or one test in a file listed as spread), slowest first."""
from __future__ import annotations

import json
from collections import defaultdict
from pathlib import Path

import pytest

SPREAD_INI = "celerylab_xdist_spread"
SECONDS_INI = "celerylab_unit_seconds"
WRITE_OPTION = "--write-unit-seconds"
SLOW = "slow"
LAST = "last"
#: A unit's expected seconds when the seconds file has no record of it, by rank (slow, notebook, rest): what the
#: ranks stood for, so that an unrecorded slow file still starts early and an unrecorded plain one late.
UNRECORDED = {0: 120.0, 1: 60.0, 2: 0.0, 3: 0.0}


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


def ordered(items: list, spread: frozenset[str] = frozenset(), seconds: dict[str, float] | None = None) -> list:
    """The items unit by unit, the longest first, `last` units at the end.

    A unit's length is its recorded worker-seconds (`seconds`, from the file `celerylab_unit_seconds` names), else
    its rank's guess (UNRECORDED: slow units first, then notebooks, then the rest); ties go to the lower rank, then
    to more tests. Longest first is what keeps a long unit from starting near the end, alone on one worker while the
    others have finished. Within a unit the collection order is kept, and equal units keep theirs: every xdist worker
    sorts alike.
    """
    seconds = seconds or {}
    units: dict[str, list] = {}
    for item in items:
        units.setdefault(unit_of(item.nodeid, spread), []).append(item)

    def key(entry):
        index, (unit, members) = entry
        place = rank(members)
        return (place == 3, -seconds.get(unit, UNRECORDED[place]), place, -len(members), index)

    order = sorted(enumerate(units.items()), key=key)
    return [item for _, (_, members) in order for item in members]


def read_seconds(path: Path) -> dict[str, float]:
    """The recorded worker-seconds per unit ({} when the file is missing or unreadable: the ranks then decide)."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return {str(unit): float(value) for unit, value in data.items()} if isinstance(data, dict) else {}


def seconds_file(config) -> Path | None:
    name = config.getini(SECONDS_INI)
    return Path(config.rootpath, name) if name else None


def recorded_seconds(config) -> dict[str, float]:
    path = seconds_file(config)
    return read_seconds(path) if path else {}


class SecondsRecorder:
    """On the controller, with --write-unit-seconds: each unit's worker-seconds (set-up, call and tear-down of its
    tests) merged into the file given, the units this run did not run keeping their earlier value."""

    def __init__(self, path: Path, spread: frozenset[str]):
        self.path, self.spread = path, spread
        self.seconds: dict[str, float] = defaultdict(float)

    def pytest_runtest_logreport(self, report) -> None:
        self.seconds[unit_of(report.nodeid, self.spread)] += report.duration

    def pytest_sessionfinish(self) -> None:
        merged = {**read_seconds(self.path), **{unit: round(value, 1) for unit, value in self.seconds.items()}}
        self.path.write_text(json.dumps(dict(sorted(merged.items())), indent=1) + "\n", encoding="utf-8")


def spread_files(config) -> frozenset[str]:
    return frozenset(config.getini(SPREAD_INI))


def pytest_addoption(parser) -> None:
    parser.addini(SPREAD_INI, type="linelist", default=[],
                  help="test files (as in node ids) whose tests are each their own xdist work unit")
    parser.addini(SECONDS_INI, default="",
                  help="JSON file of each unit's recorded worker-seconds (longest first); rewrite it with "
                       + WRITE_OPTION)
    parser.addoption(WRITE_OPTION, metavar="PATH", default=None,
                     help="merge this run's worker-seconds per unit into PATH (the file celerylab_unit_seconds names)")


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
    written = config.getoption(WRITE_OPTION.lstrip("-").replace("-", "_"), None)
    if written and not hasattr(config, "workerinput"):
        config.pluginmanager.register(SecondsRecorder(Path(written), spread_files(config)), "celerylab-unit-seconds")


def pytest_collection_modifyitems(config, items) -> None:
    """On an xdist worker: the units in the order `ordered` gives, which the controller hands out as it is."""
    if hasattr(config, "workerinput"):
        items[:] = ordered(items, spread_files(config), recorded_seconds(config))
