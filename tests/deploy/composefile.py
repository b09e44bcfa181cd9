"""Reading docker-compose.yml as Compose does (env file, interpolation), and mapping its services onto this machine."""
from __future__ import annotations

import os
import re
import shlex
import sys
from dataclasses import dataclass, field
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
ENV_EXAMPLE = ROOT / ".env.example"
DOCKERFILE = ROOT / "Dockerfile"

_VARIABLE = re.compile(r"\$(?:\$|\{(?P<name>[A-Za-z_][A-Za-z0-9_]*)(?:(?P<op>:?[-?])(?P<arg>[^}]*))?\})")


def read_env_file(path: Path = ENV_EXAMPLE) -> dict[str, str]:
    """KEY=VALUE lines of a Compose env file (comments and blank lines skipped)."""
    values = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.strip()
        if line and not line.startswith("#"):
            key, _, value = line.partition("=")
            values[key.strip()] = value.strip()
    return values


def interpolate(text: str, env: dict[str, str]) -> str:
    """Compose interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, ${VAR?error}, $$."""

    def substitute(match: re.Match) -> str:
        if match.group(0) == "$$":
            return "$"
        name, op, arg = match.group("name"), match.group("op"), match.group("arg")
        value = env.get(name)
        if op in (":-", ":?") and value == "":
            value = None
        if value is not None:
            return value
        if op and op.endswith("?"):
            raise KeyError(f"{name}: {arg}")
        return arg if op else ""

    return _VARIABLE.sub(substitute, text)


def variables_used(text: str) -> set[str]:
    return {m.group("name") for m in _VARIABLE.finditer(text) if m.group("name")}


def load_compose(env: dict[str, str] | None = None) -> dict:
    """docker-compose.yml after interpolation with `env` (default: .env.example)."""
    env = read_env_file() if env is None else env
    return yaml.safe_load(interpolate(COMPOSE_FILE.read_text(encoding="utf-8"), env))


def as_argv(command: str | list[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else [str(part) for part in command]


def as_env(environment: dict | list | None) -> dict[str, str]:
    if isinstance(environment, list):
        return dict(item.split("=", 1) for item in environment)
    return {key: "" if value is None else str(value) for key, value in (environment or {}).items()}


def dockerfile_env(path: Path = DOCKERFILE) -> dict[str, str]:
    """The image's ENV instructions (KEY=VALUE form, with line continuations)."""
    text = path.read_text(encoding="utf-8").replace("\\\n", " ")
    values = {}
    for line in text.splitlines():
        if line.strip().startswith("ENV "):
            for pair in shlex.split(line.strip()[4:]):
                key, _, value = pair.partition("=")
                values[key] = value
    return values


@dataclass
class Localizer:
    """How a service's container view maps onto this machine.

    Compose gives each service a host name and its own ports; here every
    service runs on 127.0.0.1, on a free port, in a scratch working folder.
    """

    ports: dict[int, int]
    hosts: tuple[str, ...]
    paths: dict[str, str] = field(default_factory=dict)

    def text(self, value: str) -> str:
        value = value.replace("0.0.0.0", "127.0.0.1")
        for host in self.hosts:
            value = re.sub(rf"(?<=//){re.escape(host)}(?=:)", "127.0.0.1", value)
        for inside, outside in self.ports.items():
            value = re.sub(rf"(?<![0-9]){inside}(?![0-9])", str(outside), value)
        for inside, outside in self.paths.items():
            value = value.replace(inside, outside)
        return value

    def argv(self, argv: list[str]) -> list[str]:
        return [self.text(part) for part in argv]

    def env(self, env: dict[str, str]) -> dict[str, str]:
        return {key: self.text(value) for key, value in env.items()}


def local_base_env(home: Path) -> dict[str, str]:
    """What a container starts with besides the service's own environment: PATH and HOME."""
    bin_dir = str(Path(sys.executable).parent)
    return {"PATH": os.pathsep.join([bin_dir, "/usr/local/bin", "/usr/bin", "/bin"]),
            "HOME": str(home), "LANG": "C.UTF-8", "HOSTNAME": os.uname().nodename}
