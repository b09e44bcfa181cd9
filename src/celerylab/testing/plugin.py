"""pytest plugin for the whole suite: the `needs` marker (what a test needs from the machine) and a throwaway learner home."""
from __future__ import annotations

import atexit
import os
import shutil
import socket
import tempfile
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlparse

import pytest

# Checks run by the tests record learner progress: keep it out of the real ~/.celerylab.
if "CELERYLAB_HOME" not in os.environ:
    os.environ["CELERYLAB_HOME"] = tempfile.mkdtemp(prefix="celerylab-test-home-")
    atexit.register(shutil.rmtree, os.environ["CELERYLAB_HOME"], True)

MACHINE_REDIS = os.environ.get("CELERYLAB_TEST_REDIS", "redis://127.0.0.1:6379/15")
POSTGRES = os.environ.get("CELERYLAB_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
RABBITMQ = os.environ.get("CELERYLAB_TEST_RABBITMQ", "amqp://guest:guest@127.0.0.1:5672//")


def _listening(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port), timeout=0.5):
            return True
    except OSError:
        return False


def _docker_engine() -> bool:
    """Root, Debian's dockerd, a docker CLI, the Compose v2 plugin and the local base image (.ci/setup-docker)."""
    import os
    import shutil

    cache = Path(os.environ.get("CELERYLAB_DOCKER_CACHE", "/var/cache/celerylab"))
    return (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("dockerd") is not None
            and shutil.which("docker") is not None
            and (cache / "docker-cli" / "cli-plugins" / "docker-compose").exists()
            and (cache / "base" / "debian-bookworm-python3.tar").exists())


def _rabbitmq_programs() -> bool:
    """`rabbitmq-server` and `rabbitmqctl` installed, for the private nodes lesson 08 starts (the system node's state
    does not matter)."""
    from celerylab.lessons.l08_rabbitmq import rabbitmq_node

    return not rabbitmq_node.missing()


def _redis_binary(where: str) -> bool:
    from celerylab.stack import redis_binaries

    return getattr(redis_binaries, where)() is not None


def _monitoring_program(role: str) -> bool:
    from celerylab.stack import monitoring

    return monitoring.program(role) is not None


CHECKS = {
    "redis-server": lambda: _redis_binary("system"),
    "packaged-redis": lambda: _redis_binary("packaged"),
    "real-redis": lambda: _redis_binary("system") or _redis_binary("packaged"),
    "machine-redis": lambda: _listening(MACHINE_REDIS),
    "postgres": lambda: _listening(POSTGRES),
    "rabbitmq": lambda: _listening(RABBITMQ),
    "rabbitmq-server": _rabbitmq_programs,
    "chromium": lambda: Path("/usr/bin/chromium").exists(),
    "docker": _docker_engine,
    "promtool": lambda: shutil.which("promtool") is not None,
    "amtool": lambda: shutil.which("amtool") is not None,
    "prometheus": lambda: _monitoring_program("prometheus"),
    "alertmanager": lambda: _monitoring_program("alertmanager"),
}


@lru_cache(maxsize=None)
def available(what: str) -> bool:
    return CHECKS[what]()


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
                item.add_marker(pytest.mark.skip(reason=f"this machine lacks {', '.join(missing)} "
                                                        "(CI provides it: see .ci/run)"))


@pytest.fixture
def machine_redis() -> str:
    return MACHINE_REDIS
