"""A real JupyterHub from deploy/jupyterhub driven as an instructor and learners' browsers would: REST API, the
Jupyter server's contents, sessions and kernel websocket; learners' Unix users removed afterwards."""
from __future__ import annotations

import asyncio
import json
import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

from celerylab.polling import until

ROOT = Path(__file__).resolve().parents[2]
CONFIG = ROOT / "deploy" / "jupyterhub" / "jupyterhub_config.py"
PROXY = Path("/opt/celerylab/node/node_modules/.bin/configurable-http-proxy")
PREFIX = "clab-"
INSTALLED = Path("/opt/celerylab/venv/bin/celerylab")  # the install deploy/jupyterhub/README.md describes
PROBE = "import celerylab.stack, celerylab.checks, redis, jupyterhub"
HUB_EXTRA = "pip install -c constraints.txt -e '.[hub]' (the hub extra)"
CHROMIUM = Path("/usr/bin/chromium")  # Debian's, as tests/site uses: .ci/setup-browser installs it


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def proxy_command() -> str | None:
    return shutil.which("configurable-http-proxy") or (str(PROXY) if PROXY.exists() else None)


def usable_by_learners(celerylab: Path) -> str | None:
    """Why another Unix user cannot run the environment of `celerylab` (a virtualenv whose interpreter lives under a
    0700 /root falls back to the system's Python without the course's packages), or None."""
    try:
        probe = subprocess.run([str(celerylab.with_name("python")), "-c", PROBE], user="nobody", capture_output=True,
                               text=True, timeout=120)
    except OSError as error:
        return str(error)
    return None if probe.returncode == 0 else (probe.stderr.strip().splitlines() or ["?"])[-1]


def learners_celerylab() -> tuple[Path | None, str]:
    """The celerylab command learners run: this environment's when another user can run it, else the /opt install."""
    problems = []
    for candidate in (Path(sys.executable).with_name("celerylab"), INSTALLED):
        if candidate.exists():
            problem = usable_by_learners(candidate)
            if problem is None:
                return candidate, ""
            problems.append(f"{candidate}: {problem}")
    return None, "; ".join(problems) or "no celerylab command"


def installed_package(celerylab: Path) -> Path:
    """The folder of the celerylab package that the environment of the `celerylab` command imports."""
    found = subprocess.run([str(celerylab.with_name("python")), "-c", "import celerylab; print(celerylab.__file__)"],
                           capture_output=True, text=True, timeout=120)
    return Path(found.stdout.strip()).parent


def stale_files(celerylab: Path) -> list[str]:
    """The course's modules and catalogs (src/celerylab) that the environment of `celerylab` holds otherwise than
    this checkout: learners' labs would run other code than the one under test (an /opt install not refreshed)."""
    installed = installed_package(celerylab)
    source = ROOT / "src" / "celerylab"
    differ = []
    for path in source.rglob("*"):
        if path.suffix in (".py", ".yml") and "__pycache__" not in path.parts:
            there = installed / path.relative_to(source)
            if not there.is_file() or there.read_bytes() != path.read_bytes():
                differ.append(path.relative_to(source).as_posix())
    return sorted(differ)


def refresh_installed(celerylab: Path) -> None:
    """Bring the learners' install (the /opt one deploy/jupyterhub/README.md describes) to this checkout's code and
    course files, as an instructor's update does, without pip: the course folder by rsync, the installed package's
    files copied over (new dependencies still need the README's pip command: `stale_files` then still names files)."""
    if celerylab != INSTALLED:
        return
    course = INSTALLED.parents[2] / "course"
    subprocess.run(["rsync", "-a", "--delete", "--exclude", ".venv", "--exclude", ".git", "--exclude", "__pycache__",
                    f"{ROOT}/", f"{course}/"], check=True, timeout=600)
    installed = installed_package(celerylab)
    subprocess.run(["rsync", "-a", "--exclude", "__pycache__", f"{ROOT / 'src' / 'celerylab'}/", f"{installed}/"],
                   check=True, timeout=600)
    subprocess.run(["chmod", "-R", "a+rX", str(INSTALLED.parents[2])], check=True, timeout=600)


REFRESH = ("refresh it from this checkout: rsync -a --delete <checkout>/ /opt/celerylab/course/ (without .venv, .git); "
           "/opt/celerylab/venv/bin/pip install -c /opt/celerylab/course/constraints.txt '/opt/celerylab/course[hub]'; "
           "chmod -R a+rX /opt/celerylab")


SETUP_HUB = "or `sudo bash .ci/setup-jupyterhub` installs all a hub needs (deploy/jupyterhub/README.md)"


def why_not() -> str | None:
    """Why a hub cannot run here, or None: one line naming what is missing and how to get it."""
    if os.geteuid() != 0:
        return "JupyterHub's spawner creates a Unix user per learner: needs root (run the suite as root: sudo)"
    if not shutil.which("useradd"):
        return ("no useradd to create learners' Unix users (Debian/Ubuntu: apt install passwd; Fedora: dnf install "
                f"shadow-utils), {SETUP_HUB}")
    if not shutil.which("node"):
        return ("no node: configurable-http-proxy (npm) runs on it (Debian/Ubuntu: apt install nodejs npm; Fedora: "
                f"dnf install nodejs npm; macOS: brew install node), {SETUP_HUB}")
    if proxy_command() is None:
        return f"no configurable-http-proxy: npm install --prefix {PROXY.parents[2]} configurable-http-proxy@5.3.0"
    if not (Path(sys.executable).parent / "jupyterhub").exists():
        return f"JupyterHub is not installed in this environment: {HUB_EXTRA}"
    command, problem = learners_celerylab()
    if command is None:
        return f"learners (other Unix users) cannot run the course's environment ({problem}): install it where they " \
               f"can, as deploy/jupyterhub/README.md says (/opt/celerylab), {SETUP_HUB}"
    return None


class Hub:
    """One hub on a free port with its state in `state`; learners' names get a per-run suffix."""

    def __init__(self, state: Path):
        self.state, self.port, self.token = state, free_port(), uuid.uuid4().hex
        self.url = f"http://127.0.0.1:{self.port}"
        self.process: subprocess.Popen | None = None
        self.learners: list[str] = []
        self.left_behind: list[str] = []  # what the hub left running when it stopped (proxy, services)
        self.started_in = 0.0

    def start(self, mem_gb: float = 2, cpus: float = 1) -> None:
        env = dict(os.environ, CELERYLAB_HUB_STATE=str(self.state), CELERYLAB_HUB_PORT=str(self.port),
                   CELERYLAB_HUB_IP="127.0.0.1", CELERYLAB_HUB_API_TOKEN=self.token,
                   CELERYLAB_HUB_COURSE=str(ROOT), CELERYLAB_HUB_PROXY=proxy_command() or "",
                   CELERYLAB_HUB_CELERYLAB=str(learners_celerylab()[0]),
                   CELERYLAB_HUB_MEM_GB=str(mem_gb), CELERYLAB_HUB_CPUS=str(cpus))
        env.update(CELERYLAB_HUB_INTERNAL_PORT=str(free_port()), CELERYLAB_HUB_PROXY_API_PORT=str(free_port()))
        begun = time.monotonic()
        self.log = open(self.state / "hub.log", "wb")  # noqa: SIM115
        self.process = subprocess.Popen(
            [str(Path(sys.executable).with_name("jupyterhub")), "-f", str(CONFIG)],
            cwd=self.state, env=env, stdout=self.log, stderr=subprocess.STDOUT, start_new_session=True)
        until(lambda: self.process.poll() is not None or self.answers(), 90, step=0.2)
        assert self.process.poll() is None, (self.state / "hub.log").read_text()[-3000:]
        self.started_in = time.monotonic() - begun

    def answers(self) -> bool:
        try:
            self.api("GET", "/hub/api/")
            return True
        except OSError:
            return False

    def api(self, method: str, path: str, body=None, timeout: float = 60):
        import urllib.request

        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(self.url + path, data=data, method=method,
                                         headers={"Authorization": f"token {self.token}",
                                                  "Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=timeout) as response:
            raw = response.read()
        return json.loads(raw) if raw else None

    def add_learner(self, base: str) -> str:
        name = f"{base}{uuid.uuid4().hex[:4]}"
        self.learners.append(name)
        self.api("POST", f"/hub/api/users/{name}")
        return name

    def server(self, name: str) -> dict:
        return (self.api("GET", f"/hub/api/users/{name}").get("servers") or {}).get("", {})

    def start_server(self, name: str, lang: str = "pt", timeout: float = 300) -> None:
        self.start_servers([name], lang, timeout)

    def start_servers(self, names: list[str], lang: str = "pt", timeout: float = 300) -> None:
        """Ask for every learner's server at once (the hub spawns them side by side), then wait for all."""
        for name in names:
            self.api("POST", f"/hub/api/users/{name}/server", {"lang": lang})
        assert until(lambda: all(self.server(name).get("ready") for name in names), timeout, step=0.5), names

    def stop_server(self, name: str, timeout: float = 60) -> None:
        try:
            self.api("DELETE", f"/hub/api/users/{name}/server")
        except OSError:
            pass
        assert until(lambda: not self.server(name), timeout, step=0.5), name

    def contents(self, name: str, path: str, model: dict | None = None) -> dict:
        return self.api("PUT" if model else "GET", f"/user/{name}/api/contents/{path}", model)

    def run(self, name: str, notebook: str, sources: list[str], timeout: float = 240) -> list[dict]:
        """Open `notebook` in a session (the kernel starts in its folder) and run `sources` in order: the outputs
        of each, as a browser receives them on the kernel's websocket."""
        session = self.api("POST", f"/user/{name}/api/sessions",
                           {"path": notebook, "type": "notebook", "kernel": {"name": "python3"}})
        kernel = session["kernel"]["id"]
        return asyncio.run(self._execute(name, kernel, sources, timeout))

    async def _execute(self, name: str, kernel: str, sources: list[str], timeout: float) -> list[dict]:
        from tornado.httpclient import HTTPRequest
        from tornado.websocket import websocket_connect

        url = f"ws://127.0.0.1:{self.port}/user/{name}/api/kernels/{kernel}/channels"
        socket_ = await websocket_connect(HTTPRequest(url, headers={"Authorization": f"token {self.token}"}))
        results = []
        try:
            for source in sources:
                msg_id = uuid.uuid4().hex
                socket_.write_message(json.dumps({
                    "header": {"msg_id": msg_id, "msg_type": "execute_request", "username": name, "session": msg_id,
                               "version": "5.3", "date": ""},
                    "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
                    "content": {"code": source, "silent": False, "store_history": True, "user_expressions": {},
                                "allow_stdin": False, "stop_on_error": True}}))
                outputs: dict = {"text": "", "error": None}
                async def read(msg_id=msg_id, outputs=outputs):
                    while True:
                        message = json.loads(await socket_.read_message())
                        if message.get("parent_header", {}).get("msg_id") != msg_id:
                            continue
                        kind, content = message["msg_type"], message["content"]
                        if kind == "stream":
                            outputs["text"] += content["text"]
                        elif kind in ("execute_result", "display_data"):
                            outputs["text"] += content["data"].get("text/plain", "") + "\n"
                        elif kind == "error":
                            outputs["error"] = f"{content['ename']}: {content['evalue']}"
                        elif kind == "status" and content["execution_state"] == "idle":
                            return
                await asyncio.wait_for(read(), timeout)
                results.append(outputs)
                if outputs["error"]:
                    break
        finally:
            socket_.close()
        return results

    def stop(self) -> None:
        for name in list(self.learners):
            try:
                self.stop_server(name)
            except (OSError, AssertionError):
                pass
        if self.process and self.process.poll() is None:
            import psutil

            # the proxy and the hub's services run in sessions of their own: the hub stops them on SIGTERM
            helpers = psutil.Process(self.process.pid).children(recursive=True)
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
            until(lambda: not any(each.is_running() and each.status() != psutil.STATUS_ZOMBIE for each in helpers),
                  10, step=0.2)
            self.left_behind = [" ".join(each.cmdline()[:2]) for each in helpers
                                if each.is_running() and each.status() != psutil.STATUS_ZOMBIE]
            for each in helpers:  # never left running, whatever the assertion on left_behind says
                try:
                    each.kill()
                except psutil.Error:
                    pass
        for name in self.learners:
            remove_user(PREFIX + name)
        if not self.log.closed:
            self.log.close()


def processes_of(unix_name: str) -> list[int]:
    try:
        uid = pwd.getpwnam(unix_name).pw_uid
    except KeyError:
        return []
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                status = Path(f"/proc/{entry}/status").read_text()
            except OSError:
                continue
            if f"\nUid:\t{uid}\t" in status and "\nState:\tZ" not in status:
                found.append(int(entry))
    return found


def remove_user(unix_name: str) -> None:
    if not unix_name.startswith(PREFIX):
        raise ValueError(unix_name)
    for pid in processes_of(unix_name):
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    try:
        pwd.getpwnam(unix_name)
    except KeyError:
        return
    subprocess.run(["userdel", "--remove", unix_name], capture_output=True)
