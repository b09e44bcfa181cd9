"""Debian root filesystems holding one RabbitMQ release each (debootstrap), cached and reused by private nodes."""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from celerylab.i18n import t

CACHE_ENV = "CELERYLAB_RABBITMQ_ROOTS"
MIRROR_ENV = "CELERYLAB_DEBIAN_MIRROR"
DEFAULT_MIRROR = "http://deb.debian.org/debian"
SCRIPTS = Path("/usr/share/debootstrap/scripts")
DONE = ".celerylab-root-complete"  # written last: a root without it is a build that did not finish


@dataclass(frozen=True)
class Release:
    """A RabbitMQ release line and the Debian suite that packages it."""

    line: str
    suite: str
    codename: str
    script: str  # debootstrap's script for the suite (a suite newer than debootstrap uses sid's)


#: RabbitMQ lines with Debian's suite for each: 12 (bookworm) 3.10.8, 13 (trixie) 4.0.5, testing (forky) 4.3.x.
RELEASES = {
    "3.10": Release("3.10", "bookworm", "bookworm", "bookworm"),
    "4.0": Release("4.0", "trixie", "trixie", "trixie"),
    "4.3": Release("4.3", "forky", "forky", "sid"),
}


def release(line: str) -> Release:
    """The Release of `line` ("4.0"); ValueError naming the known lines otherwise."""
    if line not in RELEASES:
        raise ValueError(t("stack.rabbitmq_release_unknown", release=line, known=", ".join(RELEASES)))
    return RELEASES[line]


def cache_folder() -> Path:
    """$CELERYLAB_RABBITMQ_ROOTS, else the user's cache folder (~/.cache/celerylab/rabbitmq)."""
    configured = os.environ.get(CACHE_ENV)
    if configured:
        return Path(configured)
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "celerylab" / "rabbitmq"


def root_of(line: str) -> Path:
    """Where the root of `line` lives (built or not)."""
    return cache_folder() / release(line).line


def missing(line: str) -> str:
    """Why no node of `line` can start from its root ("" when the root is complete)."""
    root = root_of(line)
    if not (root / DONE).exists():
        return t("stack.rabbitmq_root_missing", release=line, root=str(root))
    if not (root / "usr/lib/rabbitmq/bin/rabbitmq-server").exists():
        return t("stack.rabbitmq_root_broken", release=line, root=str(root))
    return ""


def mirror(sources: tuple[Path, ...] = (Path("/etc/apt/sources.list"), Path("/etc/apt/sources.list.d"))) -> str:
    """$CELERYLAB_DEBIAN_MIRROR, else the Debian mirror this machine's apt uses, else deb.debian.org."""
    if os.environ.get(MIRROR_ENV):
        return os.environ[MIRROR_ENV]
    files = [f for s in sources for f in ([s] if s.is_file() else sorted(s.glob("*")) if s.is_dir() else [])]
    for path in files:
        for row in path.read_text(errors="replace").splitlines():
            # one-line format (`deb [options] URL suite ...`) and deb822 (`URIs: URL`); the archive, not -security
            words = re.sub(r"\[[^]]*\]", "", row).split()
            if len(words) >= 2 and words[0] in ("deb", "URIs:") and words[1].rstrip("/").endswith("/debian"):
                return words[1].rstrip("/")
    return DEFAULT_MIRROR


def debootstrap_command(line: str, target: Path, mirror_url: str) -> list[str]:
    """The debootstrap command line that builds `line`'s root in `target`."""
    rel = release(line)
    program = shutil.which("debootstrap") or "/usr/sbin/debootstrap"
    command = [program, "--variant=minbase", "--include=rabbitmq-server", "--components=main",
               rel.suite, str(target), mirror_url]
    script = SCRIPTS / rel.codename
    if not script.exists():  # this debootstrap predates the suite: testing's script is sid's
        command.append(str(SCRIPTS / rel.script))
    return command


def build(line: str, force: bool = False, log=sys.stderr) -> tuple[Path, float]:
    """Build `line`'s root once (debootstrap, as root); (its path, seconds spent: 0 when it was there already)."""
    root = root_of(line)
    if not force and not missing(line):
        return root, 0.0
    if shutil.which("debootstrap") is None and not Path("/usr/sbin/debootstrap").exists():
        raise RuntimeError(t("stack.not_found", name=f"RabbitMQ {line}", program="debootstrap"))
    partial = root.with_name(root.name + ".partial")
    shutil.rmtree(partial, ignore_errors=True)
    partial.parent.mkdir(parents=True, exist_ok=True)
    started = time.monotonic()
    done = subprocess.run(debootstrap_command(line, partial, mirror()), stdout=log, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        raise RuntimeError(t("stack.rabbitmq_root_failed", release=line, code=done.returncode, root=str(partial)))
    for cache in ("var/cache/apt/archives", "var/lib/apt/lists"):  # downloaded packages: not needed to run
        for item in (partial / cache).glob("*.deb"):
            item.unlink()
    settle(partial)
    (partial / DONE).write_text(f"{line}\n")
    shutil.rmtree(root, ignore_errors=True)
    partial.rename(root)
    return root, time.monotonic() - started


def settle(root: Path) -> None:
    """What a node needs in its root that debootstrap leaves out: /etc/hosts naming localhost (the node is
    `name@localhost`; the root is mounted read-only, so it cannot be bound in at run time)."""
    hosts = root / "etc" / "hosts"
    if not hosts.exists():
        hosts.write_text("127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n")


def main(argv: list[str] | None = None) -> int:
    """`python -m celerylab.stack.rabbitmq_roots [--force] [LINE...]`: build the missing roots, say each one's time."""
    parser = argparse.ArgumentParser(prog="python -m celerylab.stack.rabbitmq_roots")
    parser.add_argument("lines", nargs="*", metavar="LINE", help=", ".join(RELEASES))
    parser.add_argument("--force", action="store_true")
    args = parser.parse_args(argv)
    failed = 0
    for line in args.lines or list(RELEASES):
        try:
            root, seconds = build(line, force=args.force)
        except (ValueError, RuntimeError, OSError) as error:
            print(error, file=sys.stderr)
            failed += 1
            continue
        key = "stack.rabbitmq_root_built" if seconds else "stack.rabbitmq_root_cached"
        print(t(key, release=line, root=str(root), seconds=f"{seconds:.0f}"))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
