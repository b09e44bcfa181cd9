"""`celerylab lab`: JupyterLab on the course folders, in the learner's language, on localhost with a token."""
from __future__ import annotations

import argparse
import ipaddress
import os
import sys
from pathlib import Path

from celerylab.i18n import LANGS, get_lang, normalize, set_lang, t

LOOPBACK = "127.0.0.1"
# Folders JupyterLab opens on, first one present wins: the lessons, then the exercises.
START_FOLDERS = ("notebooks", "exercises")


def course_root() -> Path:
    """The folder holding notebooks/ and exercises/ ($CELERYLAB_ROOT, the checkout, or the cwd)."""
    from celerylab.course import Course

    return Course.default().output_root


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


def lab_argv(args, root: Path, lang: str) -> list[str]:
    """The `jupyter lab` command line: the course root, the start folder, address, port and token."""
    argv = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={root}",
            f"--ServerApp.ip={args.ip}",
            # a course runs offline: no extension installs, update checks or news feed
            "--LabApp.extension_manager=readonly",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.news_url=None",
            # ... and does not ask about the news either (overrides.json in this folder)
            f"--LabApp.app_settings_dir={Path(__file__).with_name('lab_settings')}"]
    if args.port:  # an explicit port is kept or refused, never silently moved
        argv += [f"--ServerApp.port={args.port}", "--ServerApp.port_retries=0"]
    else:  # $JUPYTER_PORT or 8888, then the next free ones
        argv.append("--ServerApp.port_retries=20")
    folder = start_folder(root, lang)
    if folder:
        argv.append(f"--LabApp.default_url=/lab/tree/{folder}")
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
    if args.broker_url:
        env["CELERYLAB_BROKER_URL"] = args.broker_url
    return env


def run(args) -> int:
    lang = set_lang(getattr(args, "lang", None) or ask_language())
    root = course_root()
    if not is_loopback(args.ip):
        print(t("lab.exposed", ip=args.ip), file=sys.stderr, flush=True)
    print(t("lab.starting", root=root, language=lang), flush=True)
    argv = lab_argv(args, root, lang)
    # exec: the learner's Ctrl+C and a SIGTERM reach JupyterLab itself, which stops its kernels.
    os.execve(argv[0], argv, lab_env(args, root, lang))
    return 0
