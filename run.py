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
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
STAMP = VENV / ".celerylab-installed"
INPUTS = [ROOT / "pyproject.toml", ROOT / "constraints.txt"]

MESSAGES = {
    "pt": {
        "python": "celerylab precisa de Python 3.11 ou mais novo (este é {version}).",
        "venv": "Criando o ambiente virtual em .venv ...",
        "install": "Instalando as dependências testadas (constraints.txt) ...",
        "usage": "uso: python3 run.py lab|test [opções]",
        "failed": "A instalação falhou (código {code}). Veja a saída acima.",
    },
    "en": {
        "python": "celerylab needs Python 3.11 or newer (this is {version}).",
        "venv": "Creating the virtual environment in .venv ...",
        "install": "Installing the tested dependencies (constraints.txt) ...",
        "usage": "usage: python3 run.py lab|test [options]",
        "failed": "Installation failed (exit code {code}). See the output above.",
    },
}


def say(key: str, **kw: object) -> None:
    lang = "en" if os.environ.get("CELERYLAB_LANG", "pt").startswith("en") else "pt"
    print(MESSAGES[lang][key].format(**kw), file=sys.stderr, flush=True)


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
    pip = [str(venv_python()), "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "install", "--upgrade", "pip"], check=False)
    cmd = [*pip, "install", "-e", f"{ROOT}[dev]"]
    if (ROOT / "constraints.txt").exists():
        cmd += ["-c", str(ROOT / "constraints.txt")]
    code = subprocess.call(cmd)
    if code:
        say("failed", code=code)
        sys.exit(code)
    STAMP.write_text(wanted)
    return venv_python()


def main(argv: list[str]) -> int:
    if sys.version_info < (3, 11):
        say("python", version=sys.version.split()[0])
        return 2
    if not argv or argv[0] not in {"lab", "test"}:
        say("usage")
        return 2
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
