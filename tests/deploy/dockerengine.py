"""A private Docker engine for one test: its own dockerd, folders, socket and cgroup, gone without a trace when stopped."""
from __future__ import annotations

import hashlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

CACHE = Path(os.environ.get("CELERYLAB_DOCKER_CACHE", "/var/cache/celerylab"))
COMPOSE_PLUGIN = CACHE / "docker-cli" / "cli-plugins" / "docker-compose"
BASE_TARBALL = CACHE / "base" / "debian-bookworm-python3.tar"
BASE_IMAGE = "celerylab-base:bookworm"
IMAGE_CACHE = CACHE / "images"  # images saved by the inputs they were built from (Engine.build_cached)
LOCAL_CAS = Path("/usr/local/share/ca-certificates")
# An address range no machine network here uses; compose networks take /24s from it.
ADDRESS_POOL = "base=10.213.0.0/16,size=24"
CPU_SHARES = 128  # of the default 1024: the engine's containers get an eighth of a contended CPU


def host_state(engine: str = "cldk-") -> dict[str, str]:
    """What an engine could leave behind on the host: links, firewall rules, IP forwarding, and the cgroups and
    mounts of the engines whose root folder name starts with `engine` (one engine's own: another engine running
    on the machine at the same time is not this one's leftover)."""
    def run(*argv: str) -> str:
        try:
            return subprocess.run(argv, capture_output=True, text=True, timeout=30).stdout
        except FileNotFoundError:
            return ""

    links = sorted(line.split(":")[1].strip().split("@")[0]
                   for line in run("ip", "-o", "link", "show").splitlines() if ":" in line)
    return {
        "links": "\n".join(links),
        "iptables": run("iptables", "-S"),
        "iptables-nat": run("iptables", "-t", "nat", "-S"),
        "ip-forward": Path("/proc/sys/net/ipv4/ip_forward").read_text(),
        "netns": run("ip", "netns", "list"),
        "docker-cgroups": "\n".join(sorted(str(p) for p in Path("/sys/fs/cgroup").glob(f"*/celerylab-docker-{engine}*"))),
        "engine-mounts": "\n".join(line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()
                                   if f"/{engine}" in line.split()[4]),
        "etc-docker": "\n".join(sorted(p.name for p in Path("/etc/docker").glob("*"))),
    }


def inputs_key(*parts: str | bytes) -> str:
    """A short digest of what an image is built from (build arguments, Dockerfile text, file contents)."""
    digest = hashlib.sha256()
    for part in parts:
        data = part.encode() if isinstance(part, str) else part
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:20]


def checkout_files(root: Path) -> list[bytes]:
    """Every file of the checkout git tracks or would track (not ignored), by name and content, in a stable order:
    what a build whose context is the checkout can read (.dockerignore only takes more away)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=root,
                            capture_output=True, check=True).stdout
    parts = []
    for name in sorted(set(filter(None, listed.split(b"\0")))):
        path = root / name.decode()
        if path.is_file():
            parts += [name, path.read_bytes()]
    return parts


def _mounts_under(folder: Path) -> list[str]:
    lines = Path("/proc/self/mountinfo").read_text().splitlines()
    return [line.split()[4] for line in lines if line.split()[4].startswith(str(folder) + "/")]


def _descendants(pid: int) -> list[int]:
    import psutil

    try:
        root = psutil.Process(pid)
        return [root.pid, *(child.pid for child in root.children(recursive=True))]
    except psutil.NoSuchProcess:
        return []


def _naming(text: str) -> list[int]:
    """Processes whose command line names `text`, and theirs: containerd's shims leave dockerd's tree."""
    import psutil

    pids = []
    for process in psutil.process_iter(["cmdline"]):
        if any(text in part for part in process.info["cmdline"] or ()):
            pids += _descendants(process.pid)
    return pids


@dataclass
class Engine:
    """dockerd with its own data root, exec root, pid file, socket, cgroup parent and no default bridge.

    No iptables rules and no IP forwarding: containers talk on compose's own bridge
    networks, published ports go through docker-proxy on 127.0.0.1, and image builds
    use the host's network (to reach the package index).
    """

    root: Path = field(default_factory=lambda: Path(tempfile.mkdtemp(prefix="cldk-", dir="/tmp")))
    process: subprocess.Popen | None = None
    pids: list[int] = field(default_factory=list)

    @property
    def name(self) -> str:
        return "celerylab-docker-" + self.root.name

    @property
    def socket(self) -> Path:
        return self.root / "docker.sock"

    def env(self) -> dict[str, str]:
        config = self.root / "cli"
        plugins = config / "cli-plugins"
        if not plugins.exists():
            plugins.mkdir(parents=True)
            (plugins / "docker-compose").symlink_to(COMPOSE_PLUGIN)
        return {**os.environ, "DOCKER_HOST": f"unix://{self.socket}", "DOCKER_CONFIG": str(config),
                "DOCKER_BUILDKIT": "0", "COMPOSE_PROGRESS": "plain", "COMPOSE_MENU": "0"}

    def start(self, timeout: float = 60, bridge: str = "none", yield_cpu: bool = True) -> "Engine":
        """`bridge`: the default bridge's name, an existing link (none: containers only on networks made for them);
        `yield_cpu`: the engine runs at nice 19 and its containers get a small CPU weight (False: neither, as any
        other process)."""
        # The daemon's identity key goes in its own folder, not /etc/docker/key.json.
        (self.root / "daemon.json").write_text(json.dumps({"deprecated-key-path": str(self.root / "key.json")}))
        argv = ["dockerd", "--config-file", str(self.root / "daemon.json"),
                "--data-root", str(self.root / "data"), "--exec-root", str(self.root / "exec"),
                "--pidfile", str(self.root / "dockerd.pid"), "--host", f"unix://{self.socket}",
                "--bridge", bridge, "--iptables=false", "--ip6tables=false", "--ip-forward=false",
                "--ip-masq=false", "--default-address-pool", ADDRESS_POOL,
                "--cgroup-parent", "/" + self.name, "--exec-opt", "native.cgroupdriver=cgroupfs",
                "--storage-driver", "overlay2", "--log-level", "warn"]
        if yield_cpu:
            self.yield_cpu()
        log = open(self.root / "dockerd.log", "wb")
        # nice: the engine and its containerd yield to the suite's notebooks, whose figures are timing-sensitive
        self.process = subprocess.Popen([*(("nice", "-n", "19") if yield_cpu else ()), *argv], stdout=log, stderr=subprocess.STDOUT,
                                        start_new_session=True)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"dockerd exited {self.process.returncode}:\n{self.log()[-3000:]}")
            if self.socket.exists() and self.docker("version", check=False).returncode == 0:
                self.pids = self.processes()
                return self
            time.sleep(0.2)
        raise TimeoutError(f"dockerd not ready in {timeout} s:\n{self.log()[-3000:]}")

    def processes(self) -> list[int]:
        """dockerd, its containerd and docker-proxy children, and the containers' shims."""
        own = _descendants(self.process.pid) if self.process is not None else []
        return sorted(set(own) | set(_naming(str(self.root))))

    def log(self) -> str:
        return (self.root / "dockerd.log").read_text(errors="replace")

    def docker(self, *args: str, check: bool = True, timeout: float = 600, input: bytes | None = None,
               stdin=None) -> subprocess.CompletedProcess:
        result = subprocess.run(["docker", *args], env=self.env(), capture_output=True, timeout=timeout,
                                input=input, stdin=stdin)
        if check and result.returncode != 0:
            raise RuntimeError(failure_message(args, result))
        return result

    def import_base(self) -> None:
        """The local base image: the debootstrap tarball .ci/setup-docker made, trusting what this machine trusts.

        The machine's own certificate authorities (/usr/local/share/ca-certificates, e.g. an
        egress proxy's) are added, and pip is pointed at the system bundle as on the host, so
        the image build reaches the package index the way the host does. Nothing of this is in
        the project's Dockerfile.
        """
        with open(BASE_TARBALL, "rb") as tarball:
            self.docker("import", "-", BASE_IMAGE + "-debootstrap", stdin=tarball)
        context = self.root / "base-context"
        (context / "ca").mkdir(parents=True)
        for certificate in LOCAL_CAS.glob("*.crt"):
            shutil.copy(certificate, context / "ca" / certificate.name)
        (context / "Dockerfile").write_text(
            f"FROM {BASE_IMAGE}-debootstrap\n"
            "COPY ca/ /usr/local/share/ca-certificates/\n"
            "RUN update-ca-certificates\n"
            "ENV PIP_CERT=/etc/ssl/certs/ca-certificates.crt SSL_CERT_FILE=/etc/ssl/certs/ca-certificates.crt\n")
        self.docker("build", "--network", "none", "--tag", BASE_IMAGE, str(context))

    def build_cached(self, tags: list[str], key: str, build) -> bool:
        """Load `tags` from the image cache when they were saved from the same inputs (`key`), else run `build()`
        and save them there for the next run (older saves of the same tags go). True when loaded.

        A cache folder that cannot be written only costs the next run its build."""
        stem = "+".join(tag.replace("/", "_").replace(":", "_") for tag in tags)
        archive = IMAGE_CACHE / f"{stem}-{key}.tar"
        if archive.is_file():
            self.docker("load", "--input", str(archive), timeout=600)
            return True
        build()
        try:
            IMAGE_CACHE.mkdir(parents=True, exist_ok=True)
            partial = archive.with_name(archive.name + ".partial")
            self.docker("save", "--output", str(partial), *tags, timeout=600)
            for older in IMAGE_CACHE.glob(f"{stem}-*.tar"):
                older.unlink()
            partial.rename(archive)
        except (OSError, RuntimeError):
            archive.with_name(archive.name + ".partial").unlink(missing_ok=True)
        return False

    @staticmethod
    def base_identity() -> str:
        """What the local base image is made of: the debootstrap tarball (size, time) and the machine's CAs."""
        stat = BASE_TARBALL.stat()
        cas = sorted(f"{path.name}:{hashlib.sha256(path.read_bytes()).hexdigest()}" for path in LOCAL_CAS.glob("*.crt"))
        return f"{stat.st_size}:{stat.st_mtime_ns}:{','.join(cas)}"

    def yield_cpu(self) -> None:
        """The containers' cgroup parent gets a small CPU weight: image builds run on the time the rest of the
        suite leaves (cgroup v1 `cpu.shares`; where there is no such controller, nothing changes)."""
        folder = Path("/sys/fs/cgroup/cpu") / self.name
        try:
            folder.mkdir(exist_ok=True)
            (folder / "cpu.shares").write_text(str(CPU_SHARES))
        except OSError:
            pass

    def stop(self, timeout: float = 60) -> None:
        """SIGTERM to dockerd (it stops its containerd), then SIGKILL to anything of it still alive; folders removed."""
        if self.process is not None and self.process.poll() is None:
            self.pids = sorted(set(self.pids) | set(self.processes()))
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(10)
        self.pids = sorted(set(self.pids) | set(_naming(str(self.root))))
        for pid in self.alive():
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        for cgroup in Path("/sys/fs/cgroup").glob(f"*/{self.name}"):
            for child in sorted(cgroup.glob("**/"), key=lambda p: len(p.parts), reverse=True):
                try:
                    child.rmdir()
                except OSError:
                    pass
        # dockerd leaves its network namespace bind mount (exec-root/netns/default) behind.
        for mount in sorted(_mounts_under(self.root), key=len, reverse=True):
            if subprocess.run(["umount", mount], capture_output=True).returncode != 0:
                subprocess.run(["umount", "-l", mount], capture_output=True)
        shutil.rmtree(self.root, ignore_errors=True)

    def alive(self) -> list[int]:
        import psutil

        return [pid for pid in self.pids
                if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]


PROGRESS = re.compile(r"^\s*(Container|Network|Volume|Image) \S+\s+(Creat|Start|Stopp|Remov|Wait|Healthy|Running|Recreat)")
FAILURE_LINES = 20


def failure_message(args: tuple[str, ...], result: subprocess.CompletedProcess) -> str:
    """A failed docker command in a few lines: its first line says what failed and why (pytest's short summary prints
    the whole message, so compose's progress lines would bury every other failure of the run)."""
    output = (result.stdout.decode(errors="replace") + "\n" + result.stderr.decode(errors="replace")).splitlines()
    lines = [line for line in output if line.strip() and not PROGRESS.match(line)]
    cause = lines[-1].strip() if lines else "(no output)"
    return (f"docker {' '.join(args[:4])} exited {result.returncode}: {cause}\n"
            + "\n".join(lines[-FAILURE_LINES:]))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


EPHEMERAL_RANGE = Path("/proc/sys/net/ipv4/ip_local_port_range")
PUBLISHED_PORTS = range(20000, 30000)  # searched for a free one when the kernel's own range leaves no room below


def ephemeral_range() -> range:
    """The ports the kernel hands out on its own (bind to port 0, outgoing connections); Linux's default if unknown."""
    try:
        low, high = (int(part) for part in EPHEMERAL_RANGE.read_text().split())
    except (OSError, ValueError):
        low, high = 32768, 60999
    return range(low, high + 1)


def publishable_port(taken: set[int] = frozenset(), tries: int = 200) -> int:
    """A free loopback port outside the kernel's ephemeral range, for a port Docker publishes minutes later.

    `free_port()` answers with a port from the ephemeral range, the same range every other test's server and every
    outgoing connection takes theirs from: in a parallel suite one of them can take it before Docker binds it ("port
    is already allocated"). Nothing in the suite picks ports below that range, so one that is free now stays free.
    """
    kernel = ephemeral_range()
    candidates = [port for port in PUBLISHED_PORTS if port not in kernel and port not in taken]
    for port in random.sample(candidates, min(tries, len(candidates))):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PUBLISHED_PORTS} outside the ephemeral range {kernel}")
