"""pytest plugin: in the files listed, the stacks keep their rows in a schema each on one PostgreSQL server per process."""
from __future__ import annotations

import atexit
import os

import pytest

from celerylab import appdb

PATHS_INI = "celerylab_shared_database"


class SharedServer:
    """One PostgreSQL server for this pytest process, started the first time a listed test runs.

    StackDatabase.create then gives each stack a schema of its own on it (what the lab does with
    $CELERYLAB_DATABASE_URL), instead of starting a packaged server per stack: seconds each, and a claim test or a
    check starts several. The machine's server (CELERYLAB_TEST_POSTGRES) when it answers, as `postgres_url`.
    """

    def __init__(self):
        self.server = None
        self.url: str | None = None

    def get(self) -> str | None:
        """The server's URL; None when there is no PostgreSQL to be had (the stacks then choose as they would)."""
        if self.url is None:
            from celerylab.machine_needs import POSTGRES, listening
            from celerylab.stack import packaged_postgres

            if listening(POSTGRES):
                self.url = POSTGRES
            elif packaged_postgres.binaries() is not None:
                self.server = packaged_postgres.PrivatePostgres.start()
                atexit.register(self.stop)
                self.url = self.server.url
            else:
                self.url = ""
        return self.url or None

    def stop(self) -> None:
        if self.server is not None:
            self.server.stop()
            self.server = None


def listed(nodeid: str, paths: list[str]) -> bool:
    """Whether a test is in one of the files or folders listed (as in node ids)."""
    path = nodeid.split("::", 1)[0]
    return any(path == entry or path.startswith(entry.rstrip("/") + "/") for entry in paths)


class SharedDatabase:
    """Before each test's set-up: $CELERYLAB_DATABASE_URL on the shared server in a listed file (unless the run
    gave one), as it was everywhere else. Set before the set-up, so a module's stack fixture gets it too."""

    def __init__(self, paths: list[str]):
        self.paths = paths
        self.given = os.environ.get(appdb.DATABASE_URL_ENV)
        self.shared = SharedServer()

    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_setup(self, item) -> None:
        url = self.given or (self.shared.get() if listed(item.nodeid, self.paths) else None)
        os.environ.pop(appdb.DATABASE_URL_ENV, None)
        if url:
            os.environ[appdb.DATABASE_URL_ENV] = url

    def pytest_sessionfinish(self) -> None:
        self.shared.stop()


def pytest_addoption(parser) -> None:
    parser.addini(PATHS_INI, type="linelist", default=[],
                  help="test files or folders whose stacks share one PostgreSQL server per process (a schema each)")


def pytest_configure(config) -> None:
    paths = config.getini(PATHS_INI)
    if paths:
        config.pluginmanager.register(SharedDatabase(paths), "celerylab-shared-database")
