"""Claim tests as measurements: the `observe` fixture keeps what a claim test saw, `--claims-json` writes it per claim."""
from __future__ import annotations

import json
import re
from importlib import metadata
from pathlib import Path

import pytest

from celerylab.testing.observer import Observer

# The packages whose release decides what a claim test observes (one matrix column each).
RELEASE_PACKAGES = ("celery", "kombu", "billiard", "redis")


def plain(value):
    """`value` as JSON can carry it: scalars, lists and string-keyed dicts as they are, anything else by its repr."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): plain(item) for key, item in value.items()}
    return repr(value)


def claim_id(item) -> str:
    """`l02_workers::test_name[param]` for a test in a lesson folder: the key every matrix run shares."""
    path = Path(str(item.fspath))
    return f"{path.parent.name}::{item.name}"


LESSON_FOLDER = re.compile(r"^l\d{2}_")


def is_claim(item) -> bool:
    """A test in a lesson folder's test_claims_*.py (tests/authoring/test_claims_check.py is not a claim)."""
    path = Path(str(item.fspath))
    return path.name.startswith("test_claims_") and bool(LESSON_FOLDER.match(path.parent.name))


def redis_server() -> str:
    """The version of the server a lesson's private broker runs (the system's redis-server, else the packaged one)."""
    from celerylab.stack import redis_binaries

    binary = redis_binaries.system() or redis_binaries.packaged()
    return "-" if binary is None else redis_binaries.server_version(binary).split()[-1].replace("?", "-")


def versions() -> dict[str, str]:
    found = {}
    for name in RELEASE_PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "-"
    found["redis-server"] = redis_server()
    return found


def outcome_of(report) -> tuple[str, str]:
    """(passed | failed | skipped | error, the first line of the failure) of a test's reports."""
    if report.skipped:
        reason = report.longrepr[2] if isinstance(report.longrepr, tuple) else str(report.longrepr)
        return "skipped", reason.removeprefix("Skipped: ")
    if report.failed:
        crash = getattr(report.longrepr, "reprcrash", None)
        message = crash.message if crash is not None else str(report.longrepr)
        return ("failed" if report.when == "call" else "error"), message.splitlines()[0][:300] if message else ""
    return "passed", ""


@pytest.fixture
def observe(request) -> Observer:
    """What this claim test measured, kept under its claim id: `observe(name=value)` records,
    `observe.that(name=condition, why=...)` and `observe.equal(name=(measured, expected))` record and assert."""
    record = request.node.stash.setdefault(OBSERVED, {})

    def keep(values: dict) -> None:
        record.update({name: plain(value) for name, value in values.items()})

    return Observer(keep)


OBSERVED = pytest.StashKey[dict]()
OUTCOME = pytest.StashKey[tuple]()


def pytest_addoption(parser) -> None:
    parser.addoption("--claims-json", default=None,
                     help="write each claim test's outcome and observed values to this JSON file")
    parser.addoption("--claims-check", default=None, metavar="LESSONS_OR_JSON",
                     help="fail the run when a claim test observes other than what its lesson's observed.json in this "
                          "lessons folder (or this one file) records for the installed Celery release")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    if not is_claim(item):
        return
    current = item.stash.get(OUTCOME, ("passed", ""))
    if report.when == "call" or report.failed or report.skipped:
        if current[0] == "passed":
            item.stash[OUTCOME] = outcome_of(report)
    if report.when == "teardown":
        outcome = item.stash.get(OUTCOME, ("passed", ""))
        report.user_properties.append(("claim", {"id": claim_id(item), "outcome": outcome,
                                                 "observed": item.stash.get(OBSERVED, {}),
                                                 "lacks": lacking(item) if outcome[0] == "skipped" else []}))


def lacking(item) -> list[str]:
    """The services the item's `needs` markers name that this machine lacks (what a skip for them was for)."""
    from celerylab.testing.plugin import available

    return sorted({what for mark in item.iter_markers("needs") for what in mark.args if not available(what)})


class ClaimsCollector:
    """Collects the claim records from every test report (xdist workers included)."""

    def __init__(self):
        self.claims: dict[str, dict] = {}

    def pytest_runtest_logreport(self, report) -> None:
        for name, value in report.user_properties:
            if name == "claim":
                outcome, message = value["outcome"]
                lacks = {"lacks": value["lacks"]} if value.get("lacks") else {}  # not measured: no observation
                self.claims[value["id"]] = {"outcome": outcome, "message": message, "observed": value["observed"], **lacks}


class ClaimsWriter(ClaimsCollector):
    """... and writes them to a JSON file at the end."""

    def __init__(self, path: str):
        super().__init__()
        self.path = Path(path)

    def pytest_sessionfinish(self, session) -> None:
        from celerylab.atomic import write_text

        body = {"versions": versions(), "claims": dict(sorted(self.claims.items()))}
        write_text(self.path, json.dumps(body, indent=1, ensure_ascii=False) + "\n")


class ClaimsChecker(ClaimsCollector):
    """... and fails the run when a claim that ran observed other than its lesson's observed.json records for this
    release."""

    def __init__(self, path: str):
        super().__init__()
        self.path = Path(path)
        self.found: list = []

    def pytest_sessionfinish(self, session) -> None:
        from celerylab.matrix import results
        from celerylab.matrix.releases import RELEASES

        installed = next((release for release in RELEASES if release.is_installed()), None)
        if installed is None or not self.claims:
            return
        self.found = results.differences(results.load(self.path), {"claims": self.claims}, installed.line,
                                         only=set(self.claims))
        if self.found and session.exitstatus == 0:
            session.exitstatus = 1

    def pytest_terminal_summary(self, terminalreporter) -> None:
        from celerylab.matrix.report import describe_result

        if not self.found:
            return
        name = self.path.name if self.path.is_file() else "observed.json"
        terminalreporter.section(f"claims that observed other than {name} records", red=True)
        for claim, committed, observed in self.found:
            terminalreporter.write_line(f"{claim}\n  recorded: {describe_result(committed, 'en')}"
                                        f"\n  now:      {describe_result(observed, 'en')}")


def pytest_configure(config) -> None:
    if hasattr(config, "workerinput"):  # the controller writes and checks; xdist workers only report
        return
    path = config.getoption("--claims-json", None)
    if path:
        config.pluginmanager.register(ClaimsWriter(path), "celerylab-claims-writer")
    observed = config.getoption("--claims-check", None)
    if observed:
        config.pluginmanager.register(ClaimsChecker(observed), "celerylab-claims-checker")
