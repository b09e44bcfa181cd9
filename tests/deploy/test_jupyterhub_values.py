"""deploy/jupyterhub/kubernetes/values.yaml: the single-user pod KubeSpawner makes from it, rendered here without the
chart, is a valid Kubernetes Pod and PersistentVolumeClaim (kubernetes-validate, strict); culling and the caps hold."""
from __future__ import annotations

import copy

import pytest
import yaml
from kubefiles import KUBE_VERSIONS, ROOT
from test_kubernetes_schema import schema_error

VALUES = ROOT / "deploy" / "jupyterhub" / "kubernetes" / "values.yaml"


def values() -> dict:
    return yaml.safe_load(VALUES.read_text(encoding="utf-8"))


def pod(given: dict, profile: dict | None = None) -> dict:
    """The learner's pod as KubeSpawner builds it from `singleuser` (and a profile's override)."""
    single = given["singleuser"]
    override = (profile or {}).get("kubespawner_override", {})
    env = {**single.get("extraEnv", {}), **override.get("environment", {})}
    return {
        "apiVersion": "v1", "kind": "Pod", "metadata": {"name": "jupyter-ana"},
        "spec": {
            "securityContext": {"runAsUser": single["uid"], "fsGroup": single["fsGid"]},
            "containers": [{
                "name": "notebook", "image": f"{single['image']['name']}:{single['image']['tag']}",
                "imagePullPolicy": single["image"]["pullPolicy"], "args": single["cmd"],
                "env": [{"name": name, "value": str(value)} for name, value in env.items()],
                "lifecycle": single["lifecycleHooks"],
                "resources": {"requests": {"memory": single["memory"]["guarantee"], "cpu": single["cpu"]["guarantee"]},
                              "limits": {"memory": single["memory"]["limit"], "cpu": single["cpu"]["limit"]}},
                "volumeMounts": [{"name": "home", "mountPath": single["storage"]["homeMountPath"]}]}],
            "volumes": [{"name": "home", "persistentVolumeClaim": {"claimName": "claim-ana"}}]}}


def claim(given: dict) -> dict:
    return {"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "claim-ana"},
            "spec": {"accessModes": ["ReadWriteOnce"],
                     "resources": {"requests": {"storage": given["singleuser"]["storage"]["capacity"]}}}}


@pytest.mark.parametrize("version", KUBE_VERSIONS)
def test_the_learners_pod_and_volume_are_valid_kubernetes(version):
    given = values()
    for profile in given["singleuser"]["profileList"]:
        assert schema_error(pod(given, profile), version) is None, profile["display_name"]
    assert schema_error(claim(given), version) is None


def test_the_render_catches_a_misspelled_hook_and_a_wrong_type():
    broken = values()
    broken["singleuser"]["lifecycleHooks"] = {"postStarted": broken["singleuser"]["lifecycleHooks"]["postStart"]}
    assert schema_error(pod(broken)) is not None
    broken = copy.deepcopy(values())
    broken["singleuser"]["storage"]["homeMountPath"] = ["/home/learner"]
    assert schema_error(pod(broken)) is not None


def test_caps_culling_language_and_storage():
    given = values()
    single = given["singleuser"]
    assert given["cull"]["enabled"] and given["cull"]["timeout"] >= 600
    assert single["storage"]["type"] == "dynamic" and single["storage"]["homeMountPath"] == "/home/learner"
    assert float(single["cpu"]["guarantee"]) <= float(single["cpu"]["limit"])
    assert int(single["memory"]["guarantee"].rstrip("G")) <= int(single["memory"]["limit"].rstrip("G"))
    langs = {profile["kubespawner_override"]["environment"]["CELERYLAB_LANG"] for profile in single["profileList"]}
    assert langs == {"pt", "en"}
    # the course's image: the course in /course (Dockerfile), which the hook copies; `celerylab lab`, started by the
    # hub, turns on its single-user extension itself (tests/commands/test_lab_under_hub.py)
    dockerfile = (ROOT / "Dockerfile").read_text(encoding="utf-8")
    assert "COPY --chown=learner:learner . /course" in dockerfile and '".[hub]"' in dockerfile
    assert single["cmd"][:2] == ["celerylab", "lab"]
