"""`celerylab lab` as a JupyterHub spawner starts it, with no Jupyter config file naming the hub's extension: it
serves on the hub's port under the learner's prefix, or exits when that port is taken (the hub waits on no other)."""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from celerylab.polling import until
from celerylab.stack.ports import free_port

pytestmark = [pytest.mark.live]
pytest.importorskip("jupyterhub", reason="JupyterHub is not installed in this environment: pip install -c constraints.txt "
                                  "-e '.[hub]' (the hub extra; python3 run.py test installs it)")


class HubApi(BaseHTTPRequestHandler):
    """The hub's REST API as much as a starting single-user server asks it: its version."""

    def do_GET(self):  # noqa: N802 (http.server's name)
        body = json.dumps({"version": "6"}).encode()
        self.send_response(200)
        self.send_header("X-JupyterHub-Version", "6.1.1")
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def hub_api():
    server = ThreadingHTTPServer(("127.0.0.1", 0), HubApi)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hub/api"
    finally:
        server.shutdown()
        server.server_close()


def start_as_spawned(tmp_path: Path, api_url: str, port: int) -> subprocess.Popen:
    """`celerylab lab` with the environment JupyterHub's spawners give a single-user server, no config file."""
    (tmp_path / "course" / "notebooks" / "pt").mkdir(parents=True)
    env = {key: value for key, value in os.environ.items() if not key.startswith(("JUPYTER", "CELERYLAB_"))}
    env.update(HOME=str(tmp_path), CELERYLAB_ROOT=str(tmp_path / "course"), CELERYLAB_HOME=str(tmp_path / "state"),
               JUPYTER_CONFIG_DIR=str(tmp_path / "jupyter"), JUPYTERHUB_API_URL=api_url,
               JUPYTERHUB_SERVICE_URL=f"http://127.0.0.1:{port}/user/ana/", JUPYTERHUB_SERVICE_PREFIX="/user/ana/",
               JUPYTERHUB_BASE_URL="/", JUPYTERHUB_USER="ana", JUPYTERHUB_CLIENT_ID="jupyterhub-user-ana",
               JUPYTERHUB_API_TOKEN=os.urandom(16).hex(), JUPYTERHUB_OAUTH_CALLBACK_URL="/user/ana/oauth_callback")
    return subprocess.Popen([str(Path(sys.executable).with_name("celerylab")), "lab", "--lang", "pt", "--no-browser"],
                            env=env, cwd=tmp_path, stdout=(tmp_path / "lab.log").open("wb"),
                            stderr=subprocess.STDOUT, start_new_session=True)


def stop(process: subprocess.Popen) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGKILL)
    process.wait(30)


def version_at(url: str) -> str | None:
    try:
        with urllib.request.urlopen(url, timeout=5) as response:
            return json.loads(response.read()).get("version")
    except (OSError, ValueError):
        return None


def test_it_serves_on_the_hubs_port_under_the_learners_prefix(tmp_path: Path, hub_api: str):
    port = free_port()
    lab = start_as_spawned(tmp_path, hub_api, port)
    try:
        url = f"http://127.0.0.1:{port}/user/ana/api"
        assert until(lambda: lab.poll() is not None or version_at(url), 120, step=0.3)
        assert version_at(url), (tmp_path / "lab.log").read_text(errors="replace")[-3000:]
        assert "jupyterhub | extension was successfully loaded" in (tmp_path / "lab.log").read_text(errors="replace")
    finally:
        stop(lab)


def test_it_exits_when_the_hubs_port_is_taken(tmp_path: Path, hub_api: str):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        lab = start_as_spawned(tmp_path, hub_api, taken.getsockname()[1])
        try:  # JupyterLab's default moves to the next free port, where the hub would never look
            assert until(lambda: lab.poll() is not None, 120, step=0.3), \
                (tmp_path / "lab.log").read_text(errors="replace")[-3000:]
            assert lab.returncode != 0
        finally:
            stop(lab)
