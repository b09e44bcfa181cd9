"""The light distribution (packages/audit): its wheel holds the audit alone, and installed beside an older Celery
than the course's, with nothing of the course, `celerylab-audit` finds what the course's audit finds."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import venv
import zipfile
from pathlib import Path

import pytest
from test_audit_distribution import DEFECTIVE_APP

ROOT = Path(__file__).resolve().parents[2]
LIGHT = ROOT / "packages" / "audit"
OLDEST = "5.3"   # the oldest Celery line the light distribution accepts (its pyproject: celery>=5.3)
CLEAN_APP = '''"""A project's app with nothing to report."""
from celery import Celery

app = Celery("clean_shop", set_as_current=False)
app.conf.update(broker_url="redis://localhost:6379/0", result_backend="redis://localhost:6379/1", timezone="UTC",
                task_time_limit=30, task_soft_time_limit=25, worker_prefetch_multiplier=1)


@app.task(name="clean_shop.ship")
def ship(order_id):
    return order_id
'''


def build_wheel(folder: Path) -> Path:
    subprocess.run([sys.executable, "-m", "pip", "--disable-pip-version-check", "-q", "wheel", "--no-deps", "-w",
                    str(folder), str(LIGHT)], check=True, timeout=600, cwd=folder)
    [wheel] = folder.glob("celerylab_audit-*.whl")
    return wheel


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    return build_wheel(tmp_path_factory.mktemp("light_wheel"))


def index_unreachable(python: str, env: dict, folder: Path) -> str:
    """"" when pip can fetch the oldest Celery line from its index, else the last line of pip's error (offline)."""
    probe = subprocess.run([python, "-m", "pip", "--disable-pip-version-check", "-q", "download", "--no-deps", "-d",
                            str(folder), f"celery=={OLDEST}.*"], capture_output=True, text=True, timeout=300, env=env)
    said = (probe.stderr.strip() or probe.stdout.strip()).splitlines()
    return "" if probe.returncode == 0 else (said[-1] if said else f"pip download: exit {probe.returncode}")


@pytest.mark.live
def test_the_light_wheel_holds_the_audit_and_no_course(wheel):
    names = zipfile.ZipFile(wheel).namelist()
    assert "celerylab/audit/main.py" in names and "celerylab/audit/rules/limits.py" in names
    assert not [name for name in names if name.startswith(("celerylab/stack/stack", "celerylab/grader/",
                                                            "celerylab/checks/", "celerylab/lessons/l01_retries/tasks"))]
    metadata = zipfile.ZipFile(wheel).read(next(n for n in names if n.endswith("/METADATA"))).decode()
    requires = sorted(line.split(":", 1)[1].strip() for line in metadata.splitlines() if line.startswith("Requires-Dist"))
    assert requires == ["celery<5.8,>=5.3", "pyyaml>=5.4"]


@pytest.mark.live
@pytest.mark.timeout(1500)   # pip installs Celery and its dependencies: 225 s on a loaded 2-core machine
def test_the_light_audit_on_the_oldest_celery_line_it_accepts(wheel, tmp_path):
    home = tmp_path / "venv"
    venv.create(home, with_pip=True)
    python = str(home / "bin" / "python")
    env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    offline = index_unreachable(python, env, tmp_path / "probe")
    if offline and not os.environ.get("CI"):  # in CI the index is required, as every `needs` is there
        pytest.skip(f"needs the package index (pypi.org, or PIP_INDEX_URL) to install Celery {OLDEST}: {offline}")
    subprocess.run([python, "-m", "pip", "--disable-pip-version-check", "-q", "install", str(wheel),
                    f"celery[redis]=={OLDEST}.*", f"kombu=={OLDEST}.*"], check=True, timeout=900, env=env)
    version = subprocess.run([python, "-c", "import celery; print(celery.__version__)"], capture_output=True,
                             text=True, env=env, check=True).stdout.strip()
    assert version.startswith(OLDEST + ".")
    for heavy in ("jupyterlab", "flower", "fastapi", "nbformat", "celerylab.stack.stack"):
        assert subprocess.run([python, "-c", f"import {heavy}"], capture_output=True, env=env).returncode != 0, heavy
    project = tmp_path / "project"
    project.mkdir()
    (project / "shop_app.py").write_text(DEFECTIVE_APP, encoding="utf-8")
    (project / "clean_shop.py").write_text(CLEAN_APP, encoding="utf-8")
    (project / "broken_shop.py").write_text("raise RuntimeError('settings missing')\n", encoding="utf-8")

    def audit(app: str):
        done = subprocess.run([str(home / "bin" / "celerylab-audit"), "-A", app, "--format", "json", "--lang", "en"],
                              capture_output=True, text=True, env=env, cwd=project, timeout=300)
        return done.returncode, json.loads(done.stdout), done.stderr

    status, data, err = audit("shop_app")
    assert status == 1, err
    found = {(f["rule"], f["subject"], f["file"], f["line"]) for f in data["findings"]}
    assert {("CL101", "task_acks_lat", "shop_app.py", 5), ("CL118", "result_backend", "shop_app.py", 5)} <= found
    status, data, err = audit("clean_shop")
    assert (status, data["findings"], data["unknown"]) == (0, [], []), err
    status, data, err = audit("broken_shop")
    assert status == 2 and "settings missing" in err
    live = subprocess.run([str(home / "bin" / "celerylab-audit"), "-A", "shop_app", "--live", "--lang", "en"],
                          capture_output=True, text=True, env=env, cwd=project, timeout=300)
    assert live.returncode == 2 and "celerylab" in live.stderr and "Traceback" not in live.stderr
