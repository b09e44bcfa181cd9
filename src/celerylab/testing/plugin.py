"""pytest plugin for the whole suite: the `needs` marker (celerylab.machine_needs: what a test needs from the machine) and a throwaway learner home."""
from __future__ import annotations

import atexit
import os
import shutil
import tempfile

import pytest

from celerylab.machine_needs import CHECKS, MACHINE_REDIS, POSTGRES, RABBITMQ, available, missing_reason  # noqa: F401

# Checks run by the tests record learner progress: keep it out of the real ~/.celerylab.
if "CELERYLAB_HOME" not in os.environ:
    os.environ["CELERYLAB_HOME"] = tempfile.mkdtemp(prefix="celerylab-test-home-")
    atexit.register(shutil.rmtree, os.environ["CELERYLAB_HOME"], True)


def pytest_configure(config) -> None:
    config.addinivalue_line("markers", "needs(*what): machine services the test needs: " + ", ".join(CHECKS))
    config.addinivalue_line("markers", "live: starts live processes (a stack, a kernel, a server, a browser); "
                                       "the fast lane is `-m 'not live'`")


@pytest.fixture(autouse=True)
def _language_as_it_was(monkeypatch):
    """A test that switches the language (a CLI call with --lang) leaves the next test in its own."""
    from celerylab import i18n

    monkeypatch.setattr(i18n, "_current", i18n._current)
    monkeypatch.setenv("CELERYLAB_LANG", os.environ.get("CELERYLAB_LANG", ""))
    if not os.environ["CELERYLAB_LANG"]:
        monkeypatch.delenv("CELERYLAB_LANG")
    yield


class NotMarkedLive(RuntimeError):
    """A test without the `live` marker tried to start a process of a live stack."""


@pytest.fixture(autouse=True)
def _fast_lane_starts_nothing(request, monkeypatch):
    """Keep the fast lane honest: outside `live` tests, starting a stack process is an error."""
    if request.node.get_closest_marker("live") is not None:
        return

    def refuse(*_args, **_kwargs):
        raise NotMarkedLive(f"{request.node.nodeid} starts a live process: mark it `pytest.mark.live`")

    from celerylab.stack import broker, process

    monkeypatch.setattr(process.ManagedProcess, "start", refuse)
    monkeypatch.setattr(broker, "choose", refuse)


def pytest_collection_modifyitems(config, items) -> None:
    """Outside CI, a test whose needs are missing is skipped with the reason; in CI it runs (and fails)."""
    if os.environ.get("CI"):
        return
    for item in items:
        for mark in item.iter_markers("needs"):
            missing = [what for what in mark.args if not available(what)]
            if missing:
                item.add_marker(pytest.mark.skip(reason=missing_reason(missing)))


@pytest.fixture
def machine_redis() -> str:
    return MACHINE_REDIS


@pytest.fixture(scope="session")
def postgres_url():
    """A PostgreSQL server URL for tests of a given server (`needs("postgres")`): the machine's
    (CELERYLAB_TEST_POSTGRES) when it answers, else a packaged server of this test session's own."""
    from celerylab.machine_needs import listening

    if listening(POSTGRES):
        yield POSTGRES
        return
    from celerylab.stack.packaged_postgres import PrivatePostgres

    server = PrivatePostgres.start()
    try:
        yield server.url
    finally:
        server.stop()
