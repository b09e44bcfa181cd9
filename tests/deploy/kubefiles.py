"""Reading deploy/kubernetes/ as `kubectl apply -k` would: the kustomization's resources, every document of each."""
from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
KUBE_DIR = ROOT / "deploy" / "kubernetes"
# The Kubernetes API versions the manifests are validated against (kubernetes-validate bundles their schemas):
# 1.37, the newest it bundles, and 1.30, an older release, so that no field newer than 1.30 creeps in.
KUBE_VERSIONS = ("1.30.0", "1.37.0")


def resource_files(folder: Path = KUBE_DIR) -> list[Path]:
    """The files the kustomization lists, in its order."""
    kustomization = yaml.safe_load((folder / "kustomization.yaml").read_text(encoding="utf-8"))
    return [folder / name for name in kustomization["resources"]]


def load_resources(folder: Path = KUBE_DIR) -> list[dict]:
    """Every manifest of every resource file, empty documents dropped."""
    return [doc for path in resource_files(folder)
            for doc in yaml.safe_load_all(path.read_text(encoding="utf-8")) if doc]


def of_kind(resources: list[dict], kind: str) -> dict[str, dict]:
    return {doc["metadata"]["name"]: doc for doc in resources if doc["kind"] == kind}


def container(deployment: dict) -> dict:
    """The single container of a Deployment's pod template."""
    (only,) = deployment["spec"]["template"]["spec"]["containers"]
    return only


def env_of(one: dict) -> dict[str, dict]:
    """A container's env entries by name (each the whole entry: value or valueFrom)."""
    return {item["name"]: item for item in one.get("env", [])}


def memory_bytes(quantity: str) -> int:
    """A Kubernetes memory quantity (Ki/Mi/Gi or plain bytes) in bytes."""
    for suffix, factor in (("Ki", 2**10), ("Mi", 2**20), ("Gi", 2**30)):
        if quantity.endswith(suffix):
            return int(quantity[: -len(suffix)]) * factor
    return int(quantity)
