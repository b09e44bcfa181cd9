"""`celerylab lab`: its options, the JupyterLab command line it builds, and its language choice."""
from __future__ import annotations

from pathlib import Path

import pytest

from celerylab.cli import build_parser
from celerylab.commands import lab


def parse(*argv: str):
    return build_parser().parse_args(["lab", *argv])


def test_lang_is_accepted_after_the_subcommand():
    args = parse("--no-browser", "--lang", "en", "--port", "9999", "--token", "abc")
    assert (args.lang, args.port, args.token, args.no_browser) == ("en", 9999, "abc", True)
    assert build_parser().parse_args(["--lang", "en", "lab"]).lang == "en"


def test_argv_listens_on_loopback_with_the_token_and_opens_the_lessons(tmp_path: Path):
    (tmp_path / "notebooks" / "pt").mkdir(parents=True)
    argv = lab.lab_argv(parse("--no-browser", "--port", "9999", "--token", "abc"), tmp_path, "pt", scope=tmp_path / "scope")
    assert f"--ServerApp.root_dir={tmp_path}" in argv
    assert "--ServerApp.ip=127.0.0.1" in argv
    assert "--ServerApp.port=9999" in argv and "--ServerApp.port_retries=0" in argv
    assert "--IdentityProvider.token=abc" in argv
    assert "--LabApp.default_url=/lab/workspaces/celerylab-pt/tree/notebooks/pt" in argv
    assert "--no-browser" in argv


def test_falls_back_to_the_exercises_then_to_the_root(tmp_path: Path):
    (tmp_path / "exercises" / "en").mkdir(parents=True)
    assert lab.start_folder(tmp_path, "en") == "exercises/en"
    assert lab.start_folder(tmp_path, "pt") is None


def test_no_port_means_jupyter_port_or_8888_then_the_next_free_ones(tmp_path: Path):
    argv = lab.lab_argv(parse(), tmp_path, "pt", scope=tmp_path / "scope")
    assert not any(part.startswith("--ServerApp.port=") for part in argv)
    assert "--ServerApp.port_retries=20" in argv


@pytest.mark.parametrize("ip, loopback", [("127.0.0.1", True), ("::1", True), ("localhost", True),
                                          ("0.0.0.0", False), ("192.0.2.1", False)])
def test_loopback_detection(ip, loopback):
    assert lab.is_loopback(ip) is loopback


def test_language_is_not_asked_without_a_terminal(monkeypatch):
    monkeypatch.setattr("celerylab.i18n._current", None)
    monkeypatch.setenv("CELERYLAB_LANG", "en")
    assert lab.ask_language() == "en"


def test_language_is_asked_in_a_terminal_when_nothing_chose_it(monkeypatch):
    monkeypatch.setattr("celerylab.i18n._current", None)
    monkeypatch.delenv("CELERYLAB_LANG", raising=False)
    monkeypatch.setattr(lab.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda question: "en")
    assert lab.ask_language() == "en"
    monkeypatch.setattr("builtins.input", lambda question: "")
    assert lab.ask_language() == "pt"


def test_workspace_settings_and_jupyterlabs_language_follow_the_course_and_lang(tmp_path: Path):
    import json

    argv = {lang: lab.lab_argv(parse(), tmp_path, lang, scope=tmp_path / "home" / lang) for lang in ("pt", "en")}
    workspaces = {lang: next(a for a in argv[lang] if a.startswith("--LabApp.workspaces_dir=")) for lang in argv}
    assert workspaces["pt"] != workspaces["en"]                      # --lang en does not reopen the pt tabs
    settings = {lang: Path(next(a for a in argv[lang] if a.startswith("--LabApp.app_settings_dir=")).split("=", 1)[1])
                for lang in argv}
    overrides = json.loads((settings["pt"] / "overrides.json").read_text())
    assert overrides["@jupyterlab/apputils-extension:notification"]["checkForUpdates"] is False
    user = {lang: Path(next(a for a in argv[lang] if a.startswith("--LabApp.user_settings_dir=")).split("=", 1)[1])
            for lang in argv}
    locale = {lang: json.loads((user[lang] / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings")
                               .read_text())["locale"] for lang in argv}
    assert locale == {"pt": "pt_BR", "en": "en"}


def test_the_lab_and_its_terminals_find_the_celerylab_command(tmp_path: Path, monkeypatch):
    import os
    import sys

    monkeypatch.setenv("PATH", "/usr/bin")
    env = lab.lab_env(parse(), tmp_path, "pt")
    first = env["PATH"].split(os.pathsep)[0]
    assert first == str(Path(sys.executable).parent) and (Path(first) / "celerylab").exists()


def test_the_menu_bar_speaks_portuguese_and_keeps_what_the_learner_set(tmp_path: Path):
    import json

    user = tmp_path / "pt" / "lab" / "user-settings" / "@jupyterlab" / "mainmenu-extension" / "plugin.jupyterlab-settings"
    user.parent.mkdir(parents=True)
    user.write_text(json.dumps({"menus": [{"id": "jp-mainmenu-help", "label": "Socorro"}, {"id": "mine", "items": []}]}))
    lab.lab_argv(parse(), tmp_path, "pt", scope=tmp_path / "pt")
    menus = {menu["id"]: menu for menu in json.loads(user.read_text())["menus"]}
    assert menus["jp-mainmenu-file"]["label"] == "Arquivo" and menus["jp-mainmenu-run"]["label"] == "Executar"
    assert menus["jp-mainmenu-help"]["label"] == "Socorro" and menus["mine"] == {"id": "mine", "items": []}
    lab.lab_argv(parse(), tmp_path, "en", scope=tmp_path / "en")
    assert not (tmp_path / "en" / "lab" / "user-settings" / "@jupyterlab" / "mainmenu-extension").exists()


def test_a_broken_settings_file_is_replaced_not_fatal(tmp_path: Path):
    user = tmp_path / "lab" / "user-settings" / "@jupyterlab" / "mainmenu-extension" / "plugin.jupyterlab-settings"
    user.parent.mkdir(parents=True)
    user.write_text("{not json")
    lab.lab_argv(parse(), tmp_path, "pt", scope=tmp_path)
    assert '"Arquivo"' in user.read_text(encoding="utf-8")


def test_started_by_a_hub_it_turns_on_the_hubs_extension_and_keeps_the_hubs_port(tmp_path: Path, monkeypatch):
    monkeypatch.setenv("JUPYTERHUB_SERVICE_URL", "http://127.0.0.1:41234/user/ana/")
    argv = lab.lab_argv(parse("--no-browser"), tmp_path, "pt", scope=tmp_path / "scope")
    assert "--ServerApp.jpserver_extensions=jupyterhub=True" in argv
    assert "--ServerApp.port_retries=0" in argv and "--ServerApp.port_retries=20" not in argv
    monkeypatch.delenv("JUPYTERHUB_SERVICE_URL")
    argv = lab.lab_argv(parse("--no-browser"), tmp_path, "pt", scope=tmp_path / "scope")
    assert not any("jpserver_extensions" in part for part in argv)


@pytest.mark.parametrize("lang,done,other", [("pt", "Concluídos: 1/", "--lang en"), ("en", "Done: 0/", "--lang pt")])
def test_the_lab_opens_saying_the_progress_of_its_languages_notebooks_and_that_the_other_keeps_its_own(
        tmp_path: Path, monkeypatch, capsys, lang, done, other):
    """A pass in the Portuguese lab is not one in the English lab: starting either says whose progress it shows."""
    from celerylab.checks.learner_state import LearnerState
    from celerylab.commands._common import command_course

    monkeypatch.setenv("CELERYLAB_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("CELERYLAB_ROOT", str(tmp_path))
    course = command_course(parse("--lang", lang))  # the course the lab resolves: its progress folders
    LearnerState(lang="pt", course=course).record(course.all_exercises()[0].id, passed=True)
    started = []
    monkeypatch.setattr(lab.os, "execve", lambda *argv: started.append(argv))
    assert lab.run(parse("--no-browser", "--lang", lang)) == 0 and started
    out = capsys.readouterr().out
    assert done in out and other in out, out
    assert ("português" if lang == "pt" else "English notebooks") in out
