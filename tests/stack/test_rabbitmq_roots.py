"""The Debian roots of RabbitMQ releases: where they live, which mirror and command build them, why one is unusable."""
from __future__ import annotations

import pytest

from celerylab.stack import rabbitmq_roots


def test_the_roots_live_in_the_configured_folder_else_the_user_cache(monkeypatch, tmp_path):
    monkeypatch.setenv(rabbitmq_roots.CACHE_ENV, str(tmp_path))
    assert rabbitmq_roots.root_of("4.0") == tmp_path / "4.0"
    monkeypatch.delenv(rabbitmq_roots.CACHE_ENV)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert rabbitmq_roots.root_of("4.3") == tmp_path / "cache" / "celerylab" / "rabbitmq" / "4.3"


def test_an_unknown_release_names_the_known_ones():
    with pytest.raises(ValueError, match="3.10, 4.0, 4.3"):
        rabbitmq_roots.release("3.13")


def test_the_mirror_is_the_one_apt_uses_in_either_format(monkeypatch, tmp_path):
    monkeypatch.delenv(rabbitmq_roots.MIRROR_ENV, raising=False)
    one_line = tmp_path / "sources.list"
    one_line.write_text("# comment\ndeb [arch=amd64] http://mirror.example/debian/ bookworm main\n")
    assert rabbitmq_roots.mirror((one_line,)) == "http://mirror.example/debian"
    folder = tmp_path / "sources.list.d"
    folder.mkdir()
    (folder / "debian.sources").write_text("Types: deb\nURIs: http://other.example/debian-security\n\n"
                                           "Types: deb\nURIs: http://other.example/debian\nSuites: bookworm\n")
    assert rabbitmq_roots.mirror((tmp_path / "absent", folder)) == "http://other.example/debian"
    assert rabbitmq_roots.mirror((tmp_path / "absent",)) == rabbitmq_roots.DEFAULT_MIRROR
    monkeypatch.setenv(rabbitmq_roots.MIRROR_ENV, "http://set.example/debian")
    assert rabbitmq_roots.mirror((one_line,)) == "http://set.example/debian"


def test_debootstrap_builds_a_minimal_root_with_rabbitmq_server_and_sid_s_script_for_a_newer_suite(monkeypatch, tmp_path):
    monkeypatch.setattr(rabbitmq_roots, "SCRIPTS", tmp_path)
    (tmp_path / "trixie").write_text("")
    trixie = rabbitmq_roots.debootstrap_command("4.0", tmp_path / "root", "http://m/debian")
    assert trixie[1:] == ["--variant=minbase", "--include=rabbitmq-server", "--components=main", "trixie",
                          str(tmp_path / "root"), "http://m/debian"]
    forky = rabbitmq_roots.debootstrap_command("4.3", tmp_path / "root", "http://m/debian")
    assert forky[4] == "forky" and forky[-1] == str(tmp_path / "sid")


def test_a_root_counts_only_once_complete_and_holding_the_server(monkeypatch, tmp_path):
    monkeypatch.setenv(rabbitmq_roots.CACHE_ENV, str(tmp_path))
    assert "4.0" in rabbitmq_roots.missing("4.0") and str(tmp_path / "4.0") in rabbitmq_roots.missing("4.0")
    root = tmp_path / "4.0"
    server = root / "usr/lib/rabbitmq/bin/rabbitmq-server"
    server.parent.mkdir(parents=True)
    server.write_text("")
    assert rabbitmq_roots.missing("4.0")  # debootstrap did not finish: no completion mark
    (root / rabbitmq_roots.DONE).write_text("4.0\n")
    assert rabbitmq_roots.missing("4.0") == ""
    server.unlink()
    assert "--force" in rabbitmq_roots.missing("4.0")


def test_an_existing_root_is_reused_without_building(monkeypatch, tmp_path):
    monkeypatch.setenv(rabbitmq_roots.CACHE_ENV, str(tmp_path))
    server = tmp_path / "4.3/usr/lib/rabbitmq/bin/rabbitmq-server"
    server.parent.mkdir(parents=True)
    server.write_text("")
    (tmp_path / "4.3" / rabbitmq_roots.DONE).write_text("4.3\n")
    monkeypatch.setattr(rabbitmq_roots.subprocess, "run", lambda *a, **k: pytest.fail("debootstrap ran"))
    assert rabbitmq_roots.build("4.3") == (tmp_path / "4.3", 0.0)


def test_settling_a_root_gives_it_localhost(tmp_path):
    (tmp_path / "etc").mkdir()
    rabbitmq_roots.settle(tmp_path)
    assert "127.0.0.1\tlocalhost" in (tmp_path / "etc/hosts").read_text()
    (tmp_path / "etc/hosts").write_text("kept\n")
    rabbitmq_roots.settle(tmp_path)
    assert (tmp_path / "etc/hosts").read_text() == "kept\n"
