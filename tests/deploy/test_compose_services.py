"""Every docker-compose service, run here as a local process with its own command and environment, comes up and works."""
# No Docker needed: the compose network is mapped onto this machine (service
# host names -> 127.0.0.1, container ports -> free ports, 0.0.0.0 -> 127.0.0.1,
# /course -> this checkout, the image's virtualenv -> this one, Redis's data
# folder -> a scratch one); the rest is the file's own command and environment,
# the image's ENV and the .env.example values. test_compose_docker.py runs the
# same file in real containers.
from __future__ import annotations

import base64
import subprocess
import sys
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor

import psutil
import pytest
from composefile import ROOT, Localizer, as_argv, as_env, dockerfile_env, load_compose, local_base_env, read_env_file

from celerylab.stack.appconfig import rebind
from celerylab.stack.celery_commands import BEAT_READY, FLOWER_READY, WORKER_READY
from celerylab.stack.ports import free_port
from celerylab.stack.process import ManagedProcess

pytestmark = [pytest.mark.live, pytest.mark.slow, pytest.mark.needs("redis-server")]

READY = {"redis": r"Ready to accept connections", "worker-default": WORKER_READY,
         "worker-priority": WORKER_READY, "worker-heavy": WORKER_READY, "beat": BEAT_READY,
         "flower": FLOWER_READY, "jupyterlab": r"Jupyter Server .* is running at"}
QUEUES = {"worker-default": "default", "worker-priority": "priority", "worker-heavy": "heavy"}
# The one local difference besides the network: Beat's heartbeat every second, not every minute.
LOCAL_SETTINGS = {"CELERYLAB_HEARTBEAT_SECONDS": "1"}
TIMEOUT = 120


class LocalCompose:
    """The compose services as local processes: start, look up, run a healthcheck, stop."""

    def __init__(self, tmp_path):
        self.compose = load_compose()
        self.secrets = read_env_file()
        self.home = tmp_path / "home"
        self.home.mkdir()
        redis_dir = tmp_path / "redis-data"
        redis_dir.mkdir()
        self.local = Localizer(ports={6379: free_port(), 5555: free_port(), 8888: free_port()},
                               hosts=tuple(self.compose["services"]),
                               paths={"/course": str(ROOT), "/var/lib/redis": str(redis_dir),
                                      "/opt/celerylab": sys.prefix})  # the image's virtualenv -> this one
        self.processes: dict[str, ManagedProcess] = {}

    def env(self, name: str) -> dict[str, str]:
        service = self.compose["services"][name]
        env = {**local_base_env(self.home), **dockerfile_env(), **as_env(service.get("environment"))}
        return {**self.local.env(env), **LOCAL_SETTINGS}

    def start(self, name: str) -> ManagedProcess:
        service = self.compose["services"][name]
        cwd = self.local.text(service.get("working_dir", str(self.home)))
        process = ManagedProcess(name, self.local.argv(as_argv(service["command"])), env=self.env(name), cwd=cwd)
        self.processes[name] = process.start()
        return process

    def wait_ready(self, name: str) -> None:
        self.processes[name].wait_for_log(READY[name], TIMEOUT, since=0)

    def healthcheck(self, name: str) -> subprocess.Popen:
        test = self.compose["services"][name]["healthcheck"]["test"]
        argv = test[1:] if test[0] == "CMD" else ["sh", "-c", test[1]]
        return subprocess.Popen(self.local.argv(argv), env=self.env(name), cwd=self.home,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)

    def url(self, port: int, path: str) -> str:
        return f"http://127.0.0.1:{self.local.ports[port]}{path}"

    def stop(self) -> None:
        """SIGTERM (as `docker compose stop` sends) to every service at once, Redis last."""
        others = [process for name, process in self.processes.items() if name != "redis"]
        with ThreadPoolExecutor(max(1, len(others))) as pool:
            list(pool.map(ManagedProcess.stop, others))
        if "redis" in self.processes:
            self.processes["redis"].stop()


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    local = LocalCompose(tmp_path_factory.mktemp("compose"))
    runnable = [name for name, service in local.compose["services"].items() if not service.get("profiles")]
    assert set(runnable) == set(READY)
    try:
        local.start("redis")
        local.wait_ready("redis")
        for name in runnable[1:]:  # all at once: they wait for Redis as depends_on makes them
            local.start(name)
        for name in runnable[1:]:
            local.wait_ready(name)
        from celerylab.deploy.app import app

        rebind(app, local.env("worker-default")["REDIS_URL"])
        local.app = app
        yield local
    finally:
        pids = [p.pid for proc in local.processes.values() if proc.pid for p in _family(proc.pid)]
        local.stop()
        survivors = [pid for pid in pids if psutil.pid_exists(pid) and psutil.Process(pid).status() != psutil.STATUS_ZOMBIE]
        assert survivors == [], f"processes left running: {survivors}"


def _family(pid: int) -> list[psutil.Process]:
    try:
        root = psutil.Process(pid)
        return [root, *root.children(recursive=True)]
    except psutil.NoSuchProcess:
        return []


@pytest.mark.parametrize("service", list(QUEUES))
def test_each_worker_consumes_its_own_queue(stack, service):
    queue = QUEUES[service]
    result = stack.app.send_task("celerylab.deploy.add", (2, 3), queue=queue).get(timeout=30)
    assert result["sum"] == 5 and result["queue"] == queue
    assert result["pid"] in [p.pid for p in _family(stack.processes[service].pid)]


def test_tasks_are_routed_to_their_queue(stack):
    welcome = stack.app.send_task("celerylab.deploy.send_welcome", (7,))
    report = stack.app.send_task("celerylab.deploy.build_report", (1000,))
    assert welcome.get(timeout=30)["queue"] == "priority"
    assert report.get(timeout=30)["total"] == sum(range(1000))
    stack.processes["worker-priority"].wait_for_log(rf"send_welcome\[{welcome.id}\] succeeded", 10, since=0)
    stack.processes["worker-heavy"].wait_for_log(rf"build_report\[{report.id}\] succeeded", 10, since=0)


def test_beat_fires_and_the_default_worker_runs_it(stack):
    stack.processes["beat"].wait_for_log(r"Sending due task heartbeat", 30, since=0)
    stack.processes["worker-default"].wait_for_log(r"celerylab\.deploy\.heartbeat\[.+\] succeeded", 30, since=0)


def test_flower_answers_with_basic_auth_only(stack):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(stack.url(5555, "/"), timeout=10)
    assert refused.value.code == 401
    credentials = base64.b64encode(stack.secrets["FLOWER_BASIC_AUTH"].encode()).decode()
    request = urllib.request.Request(stack.url(5555, "/workers"), headers={"Authorization": f"Basic {credentials}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def test_jupyterlab_answers_api_with_the_token_only(stack):
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(stack.url(8888, "/api/status"), timeout=10)
    assert refused.value.code == 403
    token = stack.secrets["JUPYTER_TOKEN"]
    request = urllib.request.Request(stack.url(8888, "/api/status"), headers={"Authorization": f"token {token}"})
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 200


def test_every_healthcheck_passes(stack):
    checks = {name: stack.healthcheck(name) for name, service in stack.compose["services"].items()
              if "healthcheck" in service and name in stack.processes}
    failures = {}
    for name, check in checks.items():
        output, _ = check.communicate(timeout=60)
        if check.returncode != 0:
            failures[name] = output[-500:]
    assert failures == {}


def test_a_worker_that_stops_consuming_fails_its_healthcheck_though_it_answers_ping(stack):
    """The lesson 07 canary: `cancel_consumer` leaves the worker alive and answering ping, and its healthcheck fails."""
    nodes = [name for name, queues in (stack.app.control.inspect(timeout=5).active_queues() or {}).items()
             if any(queue["name"] == "default" for queue in queues)]  # worker-default's node
    assert nodes
    stack.app.control.cancel_consumer("default", destination=nodes, reply=True)
    try:
        assert stack.app.control.ping(destination=nodes, timeout=5)  # alive, answering ping
        check = stack.healthcheck("worker-default")
        output, _ = check.communicate(timeout=60)
        assert check.returncode == 1, output
    finally:
        stack.app.control.add_consumer("default", destination=nodes, reply=True)
    check = stack.healthcheck("worker-default")
    output, _ = check.communicate(timeout=60)
    assert check.returncode == 0, output
