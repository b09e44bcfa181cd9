"""The hub's spawner for the course: each learner a Unix user `clab-<name>` with their own copy of the course,
their own lab (`celerylab lab`, in the language they chose) and so their own stack, capped by a cgroup."""
from __future__ import annotations

import os
import pwd
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from jupyterhub.spawner import LocalProcessSpawner, set_user_setuid
from traitlets import Float, Integer, Unicode

HERE = Path(__file__).resolve().parent
CGROUPS = Path("/sys/fs/cgroup")
LANGS = {"pt": "Português", "en": "English"}
FORM = ('<label for="lang">Idioma / Language</label><select class="form-control" name="lang" id="lang">'
        + "".join(f'<option value="{code}">{name}</option>' for code, name in LANGS.items()) + "</select>")


def hierarchies(controller: str) -> list[Path]:
    """Where this machine mounts `controller`'s cgroups: its v1 hierarchy, else the v2 tree."""
    v1 = CGROUPS / controller
    if v1.is_dir() and not (CGROUPS / "cgroup.controllers").exists():
        own = next((line.split(":", 2)[2] for line in Path("/proc/self/cgroup").read_text().splitlines()
                    if controller in line.split(":", 2)[1].split(",")), "/")
        return [v1 / own.lstrip("/")]
    return [CGROUPS]


class CourseSpawner(LocalProcessSpawner):
    """LocalProcessSpawner for the course: Unix users with a prefix, made on first start; memory and CPU caps
    enforced by one cgroup per learner; on stop, everything the learner still runs (kernels, stacks) is killed."""

    unix_prefix = Unicode("clab-", config=True, help="Prefix of the learners' Unix users")
    course_checkout = Unicode(str(HERE.parents[1]), config=True,
                              help="The course's checkout (notebooks/, exercises/), readable by every learner")
    celerylab = Unicode(config=True, help="The celerylab command of an environment every learner can read")
    mem_bytes = Integer(3 * 2**30, config=True, help="Memory cap per learner (lab, kernels, stack), bytes")
    cpu_cores = Float(1.0, config=True, help="CPU cap per learner, in cores")

    options_form = FORM

    def options_from_form(self, formdata):
        lang = (formdata.get("lang") or ["pt"])[0]
        return {"lang": lang if lang in LANGS else "pt"}

    @property
    def unix_name(self) -> str:
        return self.unix_prefix + self.user.name

    @property
    def lang(self) -> str:
        lang = (self.user_options or {}).get("lang", "pt")
        return lang if lang in LANGS else "pt"

    @property
    def cgroup_name(self) -> str:
        return f"celerylab-hub-{self.unix_name}"

    def cgroups(self) -> list[Path]:
        """The learner's cgroup in each hierarchy: memory (the cap), cpu (the quota), cpuacct (CPU time used)."""
        found: dict[Path, None] = {}
        for controller in ("memory", "cpu", "cpuacct"):
            for where in hierarchies(controller):
                found[where.resolve() / self.cgroup_name] = None
        return list(found)

    def ensure_user(self) -> pwd.struct_passwd:
        """The learner's Unix user, made the first time (its own group, a home only it reads)."""
        try:
            return pwd.getpwnam(self.unix_name)
        except KeyError:
            subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", "--user-group", self.unix_name],
                           check=True, capture_output=True)
            user = pwd.getpwnam(self.unix_name)
            os.chmod(user.pw_dir, 0o700)
            return user

    def ensure_course(self, user: pwd.struct_passwd) -> Path:
        """The learner's copy of the course's notebooks (`~/celerylab`), made once: their answers stay theirs."""
        root = Path(user.pw_dir) / "celerylab"
        for folder in ("notebooks", "exercises"):
            if not (root / folder).exists():
                shutil.copytree(Path(self.course_checkout) / folder, root / folder)
        for path in [root, *root.rglob("*")]:
            os.chown(path, user.pw_uid, user.pw_gid, follow_symlinks=False)
        return root

    def make_cgroups(self) -> None:
        for folder in self.cgroups():
            folder.mkdir(exist_ok=True)
            if (folder / "memory.limit_in_bytes").exists():
                (folder / "memory.limit_in_bytes").write_text(str(self.mem_bytes))
            if (folder / "memory.max").exists():
                (folder / "memory.max").write_text(str(self.mem_bytes))
            if (folder / "cpu.cfs_quota_us").exists():
                (folder / "cpu.cfs_period_us").write_text("100000")
                (folder / "cpu.cfs_quota_us").write_text(str(int(self.cpu_cores * 100000)))
            if (folder / "cpu.max").exists():
                (folder / "cpu.max").write_text(f"{int(self.cpu_cores * 100000)} 100000")

    def make_preexec_fn(self, name):
        setuid = set_user_setuid(self.unix_name)
        folders = self.cgroups()

        def preexec():
            for folder in folders:  # as root, before the learner's uid: every process it starts stays inside
                (folder / "cgroup.procs").write_text(str(os.getpid()))
            setuid()
        return preexec

    def user_env(self, env):
        """The learner's environment. Nothing in it names the hub's own folder, which the learner may not be able to
        read (a private checkout): `celerylab lab` turns on JupyterHub's extension itself when a hub starts it."""
        user = pwd.getpwnam(self.unix_name)
        env.update(USER=self.unix_name, HOME=user.pw_dir, SHELL=user.pw_shell or "/bin/bash",
                   CELERYLAB_LANG=self.lang, CELERYLAB_ROOT=f"{user.pw_dir}/celerylab",
                   JUPYTERHUB_DEFAULT_URL=f"/lab/tree/notebooks/{self.lang}")
        env.pop("JUPYTERHUB_SINGLEUSER_APP", None)
        return env

    async def start(self):
        user = self.ensure_user()
        self.ensure_course(user)
        self.make_cgroups()
        self.notebook_dir = f"{user.pw_dir}/celerylab"
        self.cmd = [self.celerylab or str(Path(sys.executable).with_name("celerylab")), "lab",
                    "--lang", self.lang, "--no-browser"]
        return await super().start()

    def get_args(self):
        return []  # the hub's address, port and prefix reach the server's extension through the environment

    async def stop(self, now=False):
        await super().stop(now=now)
        self.release()

    def release(self, timeout: float = 15.0) -> None:
        """Kill whatever the learner still runs (kernels, workers, the stack's servers) and remove the cgroups;
        processes of the learner's uid outside them too."""
        uid = pwd.getpwnam(self.unix_name).pw_uid
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            left = set()
            for folder in self.cgroups():
                try:
                    left |= {int(pid) for pid in (folder / "cgroup.procs").read_text().split()}
                except OSError:
                    pass
            left |= {int(entry) for entry in os.listdir("/proc") if entry.isdigit() and owned_by(int(entry), uid)}
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except OSError:
                    pass
            removed = []
            for folder in self.cgroups():
                try:
                    folder.rmdir()
                except FileNotFoundError:
                    pass
                except OSError:
                    removed.append(folder)
            if not left and not removed:
                return
            time.sleep(0.1)


def owned_by(pid: int, uid: int) -> bool:
    try:
        return os.stat(f"/proc/{pid}").st_uid == uid
    except OSError:
        return False
