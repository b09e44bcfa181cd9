"""Where users meet the audit: the pre-commit hook's command, and the wheel installed alone in a clean virtualenv."""
from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
import venv
from pathlib import Path

import pytest
import yaml
from audit_helpers import HERE

ROOT = Path(__file__).resolve().parents[2]
HOOKS = ROOT / ".pre-commit-hooks.yaml"
# The keys pre-commit's manifest requires of a hook, and the values it allows where these hooks use them.
REQUIRED = {"id", "name", "entry", "language"}
LANGUAGES = {"python", "system"}

DEFECTIVE_APP = '''"""A project's app, written outside the course: a misspelled setting and a removed result backend."""
from celery import Celery

app = Celery("shop", set_as_current=False)
app.conf.update(broker_url="redis://localhost:6379/0", result_backend="amqp", task_acks_lat=True)


@app.task(name="shop.ship")
def ship(order_id):
    return order_id
'''


def hooks() -> list[dict]:
    return yaml.safe_load(HOOKS.read_text(encoding="utf-8"))


def test_the_hook_manifest_has_what_pre_commit_requires():
    found = hooks()
    assert [hook["id"] for hook in found] == ["celerylab-audit", "celerylab-audit-system"]
    for hook in found:
        assert REQUIRED <= set(hook) and hook["language"] in LANGUAGES
        assert hook["pass_filenames"] is False   # the audit takes an app, not the changed files


@pytest.mark.live
@pytest.mark.parametrize("hook_id", ["celerylab-audit", "celerylab-audit-system"])
def test_the_hooks_command_fails_on_a_defect_and_passes_a_clean_app(hook_id):
    """Run as pre-commit runs it: the entry, split like a shell, from the hook's environment (this one's bin)."""
    [hook] = [hook for hook in hooks() if hook["id"] == hook_id]
    entry = shlex.split(hook["entry"])
    command = [str(Path(sys.executable).parent / entry[0]), *entry[1:], *hook.get("args", [])]
    env = {**os.environ, "PYTHONPATH": ""}
    for app, status in (("audit_apps.cl105", 1), ("audit_apps.clean", 0)):
        done = subprocess.run([*command, "-A", app, "--lang", "en"], cwd=HERE, capture_output=True, text=True,
                              env=env, timeout=120)
        assert done.returncode == status, (app, done.stdout, done.stderr)


@pytest.mark.live
def test_the_wheel_audits_an_app_in_a_clean_virtualenv_with_nothing_of_the_lab(tmp_path):
    """pip builds the wheel; a fresh virtualenv gets it and Celery alone (no JupyterLab, no checkout on the path)."""
    wheels = tmp_path / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "wheel", "--no-deps", "-w", str(wheels), str(ROOT)], check=True, timeout=600,
                   cwd=tmp_path)
    [wheel] = wheels.glob("celerylab-*.whl")
    home = tmp_path / "venv"
    venv.create(home, with_pip=True)
    python = str(home / "bin" / "python")
    clean_env = {key: value for key, value in os.environ.items() if key not in ("PYTHONPATH", "VIRTUAL_ENV")}
    vpip = [python, "-m", "pip", "--disable-pip-version-check", "-q"]
    subprocess.run([*vpip, "install", "--no-deps", str(wheel)], check=True, timeout=600, env=clean_env)
    subprocess.run([*vpip, "install", "-c", str(ROOT / "constraints.txt"), "celery[redis]", "pyyaml"],
                   check=True, timeout=600, env=clean_env)
    project = tmp_path / "project"
    project.mkdir()
    (project / "shop_app.py").write_text(DEFECTIVE_APP, encoding="utf-8")
    lab = subprocess.run([python, "-c", "import jupyterlab"], capture_output=True, env=clean_env, cwd=project)
    assert lab.returncode != 0   # nothing of the lab is installed
    done = subprocess.run([str(home / "bin" / "celerylab"), "audit", "-A", "shop_app", "--format", "json",
                           "--lang", "en"], capture_output=True, text=True, env=clean_env, cwd=project, timeout=120)
    assert done.returncode == 1, done.stderr
    data = json.loads(done.stdout)
    found = {(f["rule"], f["subject"], f["file"], f["line"]) for f in data["findings"]}
    assert {("CL101", "task_acks_lat", "shop_app.py", 5), ("CL118", "result_backend", "shop_app.py", 5)} <= found
    urls = [f["url"] for f in data["findings"] if f["lesson"]]
    assert urls and all(url.startswith("http://127.0.0.1:8000/") and not url.endswith("#") for url in urls), urls
    assert str(ROOT) not in done.stdout + done.stderr


def readme_yaml(containing: str) -> dict | list:
    """The README's ```yaml block that mentions `containing`, parsed."""
    import re

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    [block] = [each for each in re.findall(r"```yaml\n(.*?)```", text, re.S) if containing in each]
    return yaml.safe_load(block)


def test_the_documented_code_scanning_workflow_uploads_the_sarif_its_audit_step_writes(tmp_path, capsys):
    """The README's workflow: its audit step, run here on a test app, writes the file the upload step sends."""
    import jsonschema
    from test_audit_ci import sarif_schema

    from celerylab.audit.main import main

    steps = readme_yaml("upload-sarif")["jobs"]["audit"]["steps"]
    [audit_step] = [step["run"] for step in steps if "celerylab-audit -A" in step.get("run", "")]
    [upload] = [step for step in steps if step.get("uses", "").startswith("github/codeql-action/upload-sarif@")]
    command, _, target = audit_step.partition(">")
    argv = shlex.split(command)
    assert argv[:1] == ["celerylab-audit"] and argv[1:3] == ["-A", "proj"]
    assert upload["if"] == "always()" and upload["with"]["sarif_file"] == target.strip()
    status = main(["-A", "audit_apps.cl107", *argv[3:], "--path", str(HERE)])
    sarif = json.loads(capsys.readouterr().out)
    assert status == 1 and not list(jsonschema.Draft4Validator(sarif_schema()).iter_errors(sarif))


def test_the_documented_local_pre_commit_hook_runs_the_audit(capsys):
    from celerylab.audit.main import main

    [hook] = readme_yaml("repo: local")["repos"][0]["hooks"]
    argv = shlex.split(hook["entry"])
    assert argv[:1] == ["celerylab-audit"] and argv[1:3] == ["-A", "proj"] and hook["pass_filenames"] is False
    assert hook["language"] == "python" and hook["additional_dependencies"][0].startswith("celerylab-audit @ ")
    assert main(["-A", "audit_apps.cl105", *argv[3:], "--path", str(HERE)]) == 1
    capsys.readouterr()
