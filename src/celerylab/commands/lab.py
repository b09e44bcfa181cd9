"""`celerylab lab`: JupyterLab on the course folders, in the learner's language, on localhost with a token."""
from __future__ import annotations

import argparse
import importlib.util
import ipaddress
import json
import os
import sys
from pathlib import Path

from celerylab.i18n import LANGS, get_lang, normalize, set_lang, t

LOOPBACK = "127.0.0.1"
# Folders JupyterLab opens on, first one present wins: the lessons, then the exercises.
START_FOLDERS = ("notebooks", "exercises")
# JupyterLab's own menus in the course's language (the pt-BR language pack from PyPI, when installed).
LOCALES = {"pt": ("pt_BR", "jupyterlab_language_pack_pt_BR"), "en": ("en", None)}
# Started by a JupyterHub: its single-user extension (the hub's login, address, prefix and activity), turned on
# here rather than by a config file, which learners, other Unix users, may not be able to read (a private checkout).
HUB_EXTENSION = "--ServerApp.jpserver_extensions=jupyterhub=True"




def register(subparsers) -> None:
    parser = subparsers.add_parser("lab", help=t("lab.help"))
    parser.add_argument("--lang", choices=list(LANGS), default=argparse.SUPPRESS, help=t("lab.lang"))
    parser.add_argument("--port", type=int, help=t("lab.port"))
    parser.add_argument("--ip", default=LOOPBACK, help=t("lab.ip"))
    parser.add_argument("--no-browser", action="store_true", help=t("lab.no_browser"))
    parser.add_argument("--broker-url", help=t("lab.broker_url"))
    parser.add_argument("--token", help=t("lab.token"))
    parser.set_defaults(run=run)


def ask_language() -> str:
    """The language in force, or the learner's answer when nothing chose one and a terminal can ask."""
    if "CELERYLAB_LANG" in os.environ or not sys.stdin.isatty():
        return get_lang()
    question = t("lab.ask_lang", lang="pt") + " / " + t("lab.ask_lang", lang="en") + " [pt/en] "
    try:
        answer = input(question)
    except EOFError:
        answer = ""
    return normalize(answer or "pt")


def workspace_name(lang: str) -> str:
    return f"celerylab-{lang}"


def start_folder(root: Path, lang: str) -> str | None:
    for folder in START_FOLDERS:
        if (root / folder / lang).is_dir():
            return f"{folder}/{lang}"
    return None


def is_loopback(ip: str) -> bool:
    try:
        return ipaddress.ip_address(ip).is_loopback
    except ValueError:
        return ip == "localhost"


def lab_locale(lang: str) -> str:
    locale, pack = LOCALES.get(lang, ("en", None))
    return locale if pack is None or importlib.util.find_spec(pack) else "en"


def lab_settings(scope: Path, lang: str) -> dict[str, Path]:
    """This course and language's JupyterLab folders: workspace, user settings (JupyterLab's language
    set to the course's), and overrides.json (the shipped one: no news, no update checks)."""
    folders = {name: scope / "lab" / name for name in ("workspaces", "user-settings", "app-settings")}
    for folder in folders.values():
        folder.mkdir(parents=True, exist_ok=True)
    overrides = json.loads(Path(__file__).with_name("lab_settings").joinpath("overrides.json").read_text("utf-8"))
    (folders["app-settings"] / "overrides.json").write_text(json.dumps(overrides, indent=2), encoding="utf-8")
    # the language is a user setting: jupyterlab_server translates menus by the user's locale only
    update_user_setting(folders["user-settings"], "translation-extension",
                        lambda current: {**current, "locale": lab_locale(lang)})
    labels = menu_labels(lang)
    if labels:  # the pt-BR pack leaves the menu bar's titles untranslated: the course gives them as menu settings
        update_user_setting(folders["user-settings"], "mainmenu-extension",
                            lambda current: with_menu_labels(current, labels))
    return folders


def update_user_setting(user_settings: Path, extension: str, update) -> None:
    """Rewrite one JupyterLab plugin's user settings with `update(current)`, keeping whatever else the learner set."""
    path = user_settings / "@jupyterlab" / extension / "plugin.jupyterlab-settings"
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        current = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        current = {}
    path.write_text(json.dumps(update(current if isinstance(current, dict) else {}), indent=2, ensure_ascii=False),
                    encoding="utf-8")


def menu_labels(lang: str) -> dict[str, str]:
    """The menu bar's titles in `lang` by JupyterLab menu id (none: JupyterLab's own are right)."""
    path = Path(__file__).with_name("lab_settings") / f"menus.{lang}.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() and lab_locale(lang) != "en" else {}


def with_menu_labels(current: dict, labels: dict[str, str]) -> dict:
    """Main-menu settings giving each menu of `labels` its title; a title or menu the learner set stays."""
    given = current.get("menus")
    menus = [dict(menu) for menu in given if isinstance(menu, dict)] if isinstance(given, list) else []
    for menu_id, label in labels.items():
        entry = next((menu for menu in menus if menu.get("id") == menu_id), None)
        if entry is None:
            menus.append({"id": menu_id, "label": label})
        else:
            entry.setdefault("label", label)
    return {**current, "menus": menus}


def terminal_shell() -> list[str]:
    """The lab terminals' shell: interactive, not a login shell, so it keeps the lab's PATH.

    Left alone, jupyter_server starts ``$SHELL -l`` when it has no terminal of its own, and a login
    shell reads /etc/profile, which on Debian and Ubuntu sets PATH anew: `celerylab` was not found.
    """
    return [os.environ.get("SHELL") or "/bin/sh", "-i"]


def started_by_hub() -> bool:
    """Whether a JupyterHub spawner started this lab (it gives every single-user server its address this way)."""
    return bool(os.environ.get("JUPYTERHUB_SERVICE_URL"))


def lab_argv(args, root: Path, lang: str, scope: Path) -> list[str]:
    """The `jupyter lab` command line: the course root, the start folder, address, port and token; `scope`:
    this course and language's folder (`learner_state.scope_dir`)."""
    folders = lab_settings(scope, lang)
    argv = [sys.executable, "-m", "celerylab.commands.lab_server", f"--ServerApp.root_dir={root}",
            f"--ServerApp.ip={args.ip}",
            # a course runs offline: no extension installs, update checks or news feed
            "--LabApp.extension_manager=readonly",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.news_url=None",
            # opening a notebook does not mark it modified (the kernel's `language_info` is already there)
            "--ServerApp.contents_manager_class=celerylab.commands.lab_contents.CourseContentsManager",
            # one workspace (open tabs) and one set of settings per course and language
            f"--LabApp.workspaces_dir={folders['workspaces']}",
            f"--LabApp.user_settings_dir={folders['user-settings']}",
            f"--LabApp.app_settings_dir={folders['app-settings']}",
            "--ServerApp.terminado_settings=" + json.dumps({"shell_command": terminal_shell()})]
    if args.port:  # an explicit port is kept or refused, never silently moved
        argv += [f"--ServerApp.port={args.port}", "--ServerApp.port_retries=0"]
    elif started_by_hub():  # the hub's port (from its extension), kept or refused: the hub waits on that one
        argv.append("--ServerApp.port_retries=0")
    else:  # $JUPYTER_PORT or 8888, then the next free ones
        argv.append("--ServerApp.port_retries=20")
    if started_by_hub():
        argv.append(HUB_EXTENSION)
    folder = start_folder(root, lang)
    if folder:
        # a workspace named for the language: a tab left open on the Portuguese lab that reconnects to an
        # English one started later on the same port saves its layout as celerylab-pt, not over the English one's
        argv.append(f"--LabApp.default_url=/lab/workspaces/{workspace_name(lang)}/tree/{folder}")
    if args.no_browser:
        argv.append("--no-browser")
    if hasattr(os, "geteuid") and os.geteuid() == 0:  # CI and many dev containers run as root
        argv.append("--ServerApp.allow_root=True")
    if args.token:  # else $JUPYTER_TOKEN, else a random token Jupyter prints
        argv.append(f"--IdentityProvider.token={args.token}")
    return argv


def lab_env(args, root: Path, lang: str) -> dict[str, str]:
    """The server's environment, inherited by every kernel and so by every lesson's stack."""
    env = dict(os.environ, CELERYLAB_LANG=lang, CELERYLAB_ROOT=str(root))
    # `celerylab hint ...` works in the lab's terminals: this interpreter's bin folder comes first
    bin_dir = str(Path(sys.executable).parent)
    env["PATH"] = os.pathsep.join([bin_dir, *(p for p in env.get("PATH", "").split(os.pathsep) if p and p != bin_dir)])
    if args.broker_url:
        env["CELERYLAB_BROKER_URL"] = args.broker_url
    return env


def print_progress(course, lang: str) -> None:
    """The learner's progress in this language's notebooks, and that the other language's notebooks keep their own
    (a pass in the Portuguese lab is not one in the English lab); nothing when the course has no exercises."""
    from celerylab.commands.progress import summary

    if course.all_exercises():
        print("\n".join(summary(course, lang)), flush=True)


def run(args) -> int:
    from celerylab.checks.learner_state import scope_dir
    from celerylab.commands._common import command_course

    lang = set_lang(getattr(args, "lang", None) or ask_language())
    course = command_course(args)  # the package's; its notebooks in $CELERYLAB_ROOT, the checkout, or the cwd
    root = course.output_root
    if not is_loopback(args.ip):
        print(t("lab.exposed", ip=args.ip), file=sys.stderr, flush=True)
    print(t("lab.starting", root=root, language=lang), flush=True)
    print_progress(course, lang)
    argv = lab_argv(args, root, lang, scope_dir(lang, course=course))
    # exec: the learner's Ctrl+C and a SIGTERM reach JupyterLab itself, which stops its kernels.
    os.execve(argv[0], argv, lab_env(args, root, lang))
    return 0
