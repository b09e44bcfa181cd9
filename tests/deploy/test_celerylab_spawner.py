"""deploy/jupyterhub's spawner without a hub: the language form, the learner's Unix name and environment, one
cgroup per hierarchy."""
from __future__ import annotations

import sys
from types import SimpleNamespace

import pytest
from kubefiles import ROOT

pytest.importorskip("jupyterhub", reason="JupyterHub is not installed in this environment: pip install -c constraints.txt "
                                  "-e '.[hub]' (the hub extra; python3 run.py test installs it)")
sys.path.insert(0, str(ROOT / "deploy" / "jupyterhub"))

import celerylab_spawner  # noqa: E402


def spawner(**options) -> celerylab_spawner.CourseSpawner:
    made = celerylab_spawner.CourseSpawner.__new__(celerylab_spawner.CourseSpawner)
    made._trait_values.update(user_options=options, unix_prefix="clab-")
    made._trait_values["user"] = SimpleNamespace(name="ana")
    return made


def test_the_form_gives_a_language_of_the_course_only():
    made = spawner()
    assert made.options_from_form({"lang": ["en"]}) == {"lang": "en"}
    assert made.options_from_form({"lang": ["de"]}) == {"lang": "pt"}
    assert made.options_from_form({}) == {"lang": "pt"}
    assert spawner(lang="<script>").lang == "pt" and spawner(lang="en").lang == "en"


def test_the_learner_is_a_prefixed_unix_user_with_one_cgroup_per_hierarchy(monkeypatch, tmp_path):
    made = spawner(lang="en")
    assert made.unix_name == "clab-ana" and made.cgroup_name == "celerylab-hub-clab-ana"
    monkeypatch.setattr(celerylab_spawner, "hierarchies", lambda controller: [tmp_path])  # v2: one tree
    assert made.cgroups() == [tmp_path / "celerylab-hub-clab-ana"]
    monkeypatch.setattr(celerylab_spawner, "hierarchies", lambda controller: [tmp_path / controller])
    assert [path.parent.name for path in made.cgroups()] == ["memory", "cpu", "cpuacct"]


def test_the_environment_is_the_learners(monkeypatch):
    monkeypatch.setattr(celerylab_spawner.pwd, "getpwnam", lambda name: SimpleNamespace(
        pw_dir=f"/home/{name}", pw_shell="/bin/bash", pw_name=name))
    env = spawner(lang="en").user_env({"JUPYTERHUB_SINGLEUSER_APP": "x"})
    assert env["USER"] == "clab-ana" and env["HOME"] == "/home/clab-ana"
    assert env["CELERYLAB_LANG"] == "en" and env["CELERYLAB_ROOT"] == "/home/clab-ana/celerylab"
    assert env["JUPYTERHUB_DEFAULT_URL"] == "/lab/tree/notebooks/en" and "JUPYTERHUB_SINGLEUSER_APP" not in env


def test_the_learners_environment_names_nothing_in_the_hubs_own_folder(monkeypatch):
    """The hub's folder may be a private checkout (CI clones into a 0700 folder): a path into it that the learner's
    server needs (JupyterHub's extension config once) left the server on 8888 outside the hub, never ready."""
    monkeypatch.setattr(celerylab_spawner.pwd, "getpwnam", lambda name: SimpleNamespace(
        pw_dir=f"/home/{name}", pw_shell="/bin/bash", pw_name=name))
    env = spawner(lang="pt").user_env({"PATH": "/usr/bin:/bin"})
    hub_folder = str(celerylab_spawner.HERE.parents[1])
    assert [key for key, value in env.items() if hub_folder in value] == []
