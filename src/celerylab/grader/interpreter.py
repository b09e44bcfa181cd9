"""Whether this virtualenv runs on the Python it was made from (a base this user cannot read gives another one)."""
from __future__ import annotations

import platform
import sys
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class ForeignBase:
    """The venv was made from Python `made` in `base` (its prefix); Python `running` from `running_base` runs it."""

    base: Path
    made: str
    running: str
    running_base: Path

    def detail(self) -> str:
        """The facts, in no language: ``3.11.2 (/usr) != 3.11.7 (/root/.pyenv/versions/3.11.7)``."""
        return f"Python {self.running} ({self.running_base}) != {self.made} ({self.base})"


def venv_settings(prefix: Path) -> dict[str, str]:
    """The ``key = value`` lines of `prefix`/pyvenv.cfg (none outside a venv or when unreadable)."""
    try:
        text = (prefix / "pyvenv.cfg").read_text(encoding="utf-8")
    except OSError:
        return {}
    pairs = (line.split("=", 1) for line in text.splitlines() if "=" in line)
    return {key.strip().lower(): value.strip() for key, value in pairs}


def foreign_base(prefix: str | None = None, base_prefix: str | None = None,
                 running: str | None = None) -> ForeignBase | None:
    """The venv's own Python when another one runs it, else None.

    A venv made from a Python the current user cannot read (a pyenv under /root, mode 0700) still starts: its
    launcher falls back to the system's libpython and standard library. Its packages were chosen for the other
    version (redis needs async_timeout only before 3.11.3), so an import fails in every job: the machine's
    installation, never the learner's answer."""
    own, base_of_running = Path(prefix or sys.prefix), Path(base_prefix or sys.base_prefix)
    running = running or platform.python_version()
    settings = venv_settings(own)
    made = settings.get("version") or settings.get("version_info", "")
    home = settings.get("home")
    if own == base_of_running or not made or not home or _release(made) == _release(running):
        return None
    base = Path(home)
    return ForeignBase(base.parent if base.name in ("bin", "Scripts") else base, made, running, base_of_running)


def _release(version: str) -> tuple[str, ...]:
    """``3.11.7.final.0`` (virtualenv's version_info) and ``3.11.7`` alike: the first three numbers."""
    return tuple(version.split(".")[:3])
