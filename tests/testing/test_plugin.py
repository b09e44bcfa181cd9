"""The `needs` marker's checks: `real-redis` is the system's redis-server or a packaged server, never fakeredis alone."""
from __future__ import annotations

import pytest

from celerylab.stack import redis_binaries
from celerylab.testing.plugin import CHECKS


@pytest.mark.parametrize(("system", "packaged", "real"), [
    (True, False, True), (False, True, True), (True, True, True), (False, False, False)])
def test_real_redis_is_either_server(monkeypatch, system, packaged, real):
    binary = redis_binaries.Binary("/x/redis-server")
    monkeypatch.setattr(redis_binaries, "system", lambda: binary if system else None)
    monkeypatch.setattr(redis_binaries, "packaged", lambda: binary if packaged else None)
    assert CHECKS["real-redis"]() is real
    assert CHECKS["redis-server"]() is system and CHECKS["packaged-redis"]() is packaged


def test_promtool_is_looked_for_on_the_path(monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert CHECKS["promtool"]() is False
    tool = tmp_path / "promtool"
    tool.write_text("#!/bin/sh\n")
    tool.chmod(0o755)
    assert CHECKS["promtool"]() is True


@pytest.mark.parametrize(("need", "names"), [("prometheus", ["prometheus"]),
                                             ("alertmanager", ["prometheus-alertmanager", "alertmanager"])])
def test_the_monitoring_servers_are_looked_for_on_the_path_under_each_name(monkeypatch, tmp_path, need, names):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert CHECKS[need]() is False
    for name in names:  # Debian's name, then upstream's
        tool = tmp_path / name
        tool.write_text("#!/bin/sh\n")
        tool.chmod(0o755)
        assert CHECKS[need]() is True
        tool.unlink()


def test_rabbitmq_server_means_both_programs_are_installed(monkeypatch, tmp_path):
    from celerylab.stack import rabbitmq_node

    monkeypatch.setattr(rabbitmq_node, "LIB_BIN", tmp_path)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert CHECKS["rabbitmq-server"]() is False
    for name in ("rabbitmq-server", "rabbitmqctl"):
        (tmp_path / name).write_text("#!/bin/sh\n")
        (tmp_path / name).chmod(0o755)
    assert CHECKS["rabbitmq-server"]() is True
