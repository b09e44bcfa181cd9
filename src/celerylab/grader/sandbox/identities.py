"""The job's own /etc/passwd and /etc/group: the machine's, plus the job's two users, so that a program that looks
its user up (PostgreSQL's initdb, getpass) finds a name for it inside the sandbox."""
from __future__ import annotations

from pathlib import Path

JOB_NAME, SERVICE_NAME = "celerylab-job", "celerylab-service"
NO_SHELL = "/usr/sbin/nologin"


def _machine(path: str) -> str:
    try:
        text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        text = ""
    return text if not text or text.endswith("\n") else text + "\n"


def files(folder: Path, name: str, uid: int, service_uid: int | None, home: Path) -> dict[str, str]:
    """Write the job's passwd and group into `folder` (the job's, which it cannot write), suffixed `name` (its
    attempt); {file in the sandbox: its source}, bound read-only over the machine's."""
    users = [(JOB_NAME, uid)] + ([(SERVICE_NAME, service_uid)] if service_uid is not None else [])
    passwd, group = folder / f"passwd-{name}", folder / f"group-{name}"
    passwd.write_text(_machine("/etc/passwd") + "".join(
        f"{name}:x:{number}:{number}:celerylab:{home}:{NO_SHELL}\n" for name, number in users),
        encoding="utf-8", errors="surrogateescape")
    group.write_text(_machine("/etc/group") + "".join(f"{name}:x:{number}:\n" for name, number in users),
                     encoding="utf-8", errors="surrogateescape")
    for path in (passwd, group):
        path.chmod(0o644)
    return {"/etc/passwd": str(passwd), "/etc/group": str(group)}
