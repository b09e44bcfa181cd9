#!/usr/bin/env python3
"""Bootstrap: create the project's virtualenv with the tested versions, then run `lab` or `test`.

    python3 run.py lab [celerylab lab options]   # JupyterLab on the course (embedded broker by default)
    python3 run.py test [pytest options]         # the whole test suite, in parallel

Needs only Python 3.11+. The virtualenv lives in .venv and is refreshed when
pyproject.toml or constraints.txt change.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import threading
import time
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".celerylab-installed"
PIP_LOG = VENV / "pip-install.log"
TICK_SECONDS = 15.0
INPUTS = [ROOT / "pyproject.toml", ROOT / "constraints.txt"]

MESSAGES = {
    "pt": {
        "python": "celerylab precisa de Python 3.11 ou mais novo (este é {version}).",
        "venv": "Criando o ambiente virtual em .venv ...",
        "install": "Instalando as dependências testadas (constraints.txt): na primeira vez leva um ou dois minutos ...",
        "phase.pip": "[{elapsed:.0f} s] Atualizando o pip ...",
        "phase.resolve": "[{elapsed:.0f} s] Baixando e conferindo os pacotes ...",
        "phase.build": "[{elapsed:.0f} s] Preparando o celerylab (instalação editável) ...",
        "phase.install": "[{elapsed:.0f} s] Instalando {count} pacotes no .venv ...",
        "tick": "[{elapsed:.0f} s] ... ainda trabalhando",
        "done": "[{elapsed:.0f} s] Dependências instaladas.",
        "usage": "uso: python3 run.py lab|test [opções]",
        "ask": "Idioma do curso",
        "failed": "A instalação falhou (código {code}). O fim da saída do pip está acima; ela inteira está em {log}.",
    },
    "en": {
        "python": "celerylab needs Python 3.11 or newer (this is {version}).",
        "venv": "Creating the virtual environment in .venv ...",
        "install": "Installing the tested dependencies (constraints.txt): the first time takes a minute or two ...",
        "phase.pip": "[{elapsed:.0f} s] Upgrading pip ...",
        "phase.resolve": "[{elapsed:.0f} s] Downloading and checking the packages ...",
        "phase.build": "[{elapsed:.0f} s] Preparing celerylab (editable install) ...",
        "phase.install": "[{elapsed:.0f} s] Installing {count} packages into .venv ...",
        "tick": "[{elapsed:.0f} s] ... still working",
        "done": "[{elapsed:.0f} s] Dependencies installed.",
        "usage": "usage: python3 run.py lab|test [options]",
        "ask": "Course language",
        "failed": "Installation failed (exit code {code}). The end of pip's output is above; all of it is in {log}.",
    },
}


def language(argv: list[str] | None = None) -> str:
    """The set-up's language: `--lang` on the command line (``run.py lab --lang en``), else $CELERYLAB_LANG, else pt."""
    argv = sys.argv[1:] if argv is None else argv
    given = next((argv[i + 1] for i, arg in enumerate(argv[:-1]) if arg == "--lang"),
                 next((arg.split("=", 1)[1] for arg in argv if arg.startswith("--lang=")), None))
    return "en" if (given or os.environ.get("CELERYLAB_LANG", "pt")).startswith("en") else "pt"


def ask_language(argv: list[str]) -> None:
    """`lab` with no `--lang` and no $CELERYLAB_LANG, on a terminal: ask the learner now, before the install, which
    then speaks the answer; $CELERYLAB_LANG carries it to `celerylab lab`, which does not ask again."""
    given = any(arg == "--lang" or arg.startswith("--lang=") for arg in argv)
    if argv[:1] != ["lab"] or given or "CELERYLAB_LANG" in os.environ or not sys.stdin.isatty():
        return
    question = f"{MESSAGES['pt']['ask']} / {MESSAGES['en']['ask']} [pt/en] "
    try:
        answer = input(question).strip().lower()
    except EOFError:
        answer = ""
    os.environ["CELERYLAB_LANG"] = "en" if answer.startswith("en") else "pt"


def say(key: str, **kw: object) -> None:
    print(MESSAGES[language()][key].format(**kw), file=sys.stderr, flush=True)


def phase_of(line: str) -> str | None:
    """The set-up phase a line of pip's output starts, if any (pip's own words are English only)."""
    if line.startswith(("Collecting ", "Requirement already satisfied", "Obtaining ")):
        return "resolve"
    if line.startswith(("Building editable", "Preparing editable", "Building wheel", "Getting requirements")):
        return "build"
    if line.startswith("Installing collected packages:"):
        return "install"
    return None


def pip_with_progress(cmd: list[str], log, started: float, phases: bool = True) -> int:
    """Run pip, its output to `log`, and say each new phase (if `phases`) and, every TICK_SECONDS, that it still works."""
    state = {"phase": None}
    done = threading.Event()

    def tick() -> None:
        while not done.wait(TICK_SECONDS):
            say("tick", elapsed=time.monotonic() - started)

    ticker = threading.Thread(target=tick, daemon=True)
    ticker.start()
    try:
        process = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, bufsize=1)
        for line in process.stdout:
            log.write(line)
            phase = phase_of(line) if phases else None
            if phase and phase != state["phase"]:
                state["phase"] = phase
                count = len(line.split(":", 1)[1].replace(",", " ").split()) if phase == "install" else 0
                say(f"phase.{phase}", elapsed=time.monotonic() - started, count=count)
        return process.wait()
    finally:
        done.set()


def tail(path: Path, lines: int = 30) -> str:
    return "".join(path.read_text(encoding="utf-8", errors="replace").splitlines(keepends=True)[-lines:])


def venv_python() -> Path:
    return VENV / "bin" / "python"


def inputs_digest() -> str:
    digest = hashlib.sha256()
    for path in INPUTS:
        digest.update(path.read_bytes() if path.exists() else b"")
    return digest.hexdigest()


def ensure_venv() -> Path:
    if not venv_python().exists():
        say("venv")
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    wanted = inputs_digest()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return venv_python()
    say("install")
    started = time.monotonic()
    # pip's output goes to PIP_LOG; the user sees a line per phase in their language, with the time elapsed.
    pip = [str(venv_python()), "-m", "pip", "--disable-pip-version-check", "install", "--progress-bar", "off"]
    cmd = [*pip, "-e", f"{ROOT}[dev]"]
    if (ROOT / "constraints.txt").exists():
        cmd += ["-c", str(ROOT / "constraints.txt")]
    with PIP_LOG.open("w", encoding="utf-8") as log:
        say("phase.pip", elapsed=0.0, count=0)
        pip_with_progress([*pip, "--upgrade", "pip"], log, started, phases=False)
        code = pip_with_progress(cmd, log, started)
    if code:
        print(tail(PIP_LOG), file=sys.stderr)
        say("failed", code=code, log=PIP_LOG)
        sys.exit(code)
    say("done", elapsed=time.monotonic() - started)
    STAMP.write_text(wanted)
    return venv_python()


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        say("python", version=sys.version.split()[0])
        return 2
    if not argv or argv[0] not in {"lab", "test"}:
        say("usage")
        return 2
    ask_language(argv)
    python = ensure_venv()
    command, rest = argv[0], argv[1:]
    env = dict(os.environ, PATH=f"{VENV / 'bin'}{os.pathsep}{os.environ.get('PATH', '')}")
    if command == "lab":
        args = [str(python), "-m", "celerylab.cli", "lab", *rest]
    else:
        args = [str(python), "-m", "pytest", *rest]
    os.chdir(ROOT)
    os.execve(args[0], args, env)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
