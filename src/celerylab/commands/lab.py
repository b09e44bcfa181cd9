"""`celerylab lab`: JupyterLab on the course folders, in the learner's language, on localhost with a token."""
from __future__ import annotations

import os
import sys
from pathlib import Path

from celerylab.i18n import LANGS, get_lang, normalize, set_lang, t

ROOT_ENV = "CELERYLAB_ROOT"


def course_root() -> Path:
    """The folder holding notebooks/ and exercises/: $CELERYLAB_ROOT, the checkout, or the cwd."""
    if os.environ.get(ROOT_ENV):
        return Path(os.environ[ROOT_ENV]).resolve()
    checkout = Path(__file__).resolve().parents[3]
    return checkout if (checkout / "notebooks").is_dir() else Path.cwd()


def register(subparsers) -> None:
    parser = subparsers.add_parser("lab", help=t("lab.help"))
    parser.add_argument("--port", type=int, default=8888, help=t("lab.port"))
    parser.add_argument("--no-browser", action="store_true", help=t("lab.no_browser"))
    parser.add_argument("--broker-url", help=t("lab.broker_url"))
    parser.add_argument("--token", help=t("lab.token"))
    parser.set_defaults(run=run)


def ask_language() -> str:
    if "CELERYLAB_LANG" in os.environ or not sys.stdin.isatty():
        return get_lang()
    answer = input(t("lab.ask_lang", lang="pt") + " / " + t("lab.ask_lang", lang="en") + " [pt/en] ")
    return normalize(answer or "pt")


def lab_argv(args, root: Path, lang: str) -> list[str]:
    start = root / "notebooks" / lang
    argv = [sys.executable, "-m", "jupyter", "lab", f"--ServerApp.root_dir={root}",
            f"--ServerApp.ip=127.0.0.1", f"--ServerApp.port={args.port}",
            "--ServerApp.port_retries=20"]
    if start.is_dir():
        argv.append(f"--LabApp.default_url=/lab/tree/notebooks/{lang}")
    if args.no_browser:
        argv.append("--no-browser")
    if args.token:
        argv.append(f"--IdentityProvider.token={args.token}")
    return argv


def run(args) -> int:
    lang = set_lang(args.lang) if args.lang else set_lang(ask_language())
    assert lang in LANGS
    root = course_root()
    env = dict(os.environ, CELERYLAB_LANG=lang, CELERYLAB_ROOT=str(root))
    if args.broker_url:
        env["CELERYLAB_BROKER_URL"] = args.broker_url
    print(t("lab.starting", root=root, lang=lang), flush=True)
    argv = lab_argv(args, root, lang)
    os.execve(argv[0], argv, env)
    return 0
