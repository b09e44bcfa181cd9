"""deploy/kubernetes/ validates offline against the Kubernetes API schemas of KUBE_VERSIONS (kubernetes-validate, strict)."""
from __future__ import annotations

import copy

import kubernetes_validate
import pytest
from kubefiles import KUBE_DIR, KUBE_VERSIONS, load_resources, resource_files


def schema_error(doc: dict, version: str = KUBE_VERSIONS[-1]) -> str | None:
    try:
        kubernetes_validate.validate(doc, version, strict=True)
    except kubernetes_validate.ValidationError as error:
        return f"{'/'.join(map(str, error.path))}: {error.message}"
    return None


def test_the_kustomization_lists_every_manifest_of_the_folder():
    listed = {path.name for path in resource_files()}
    present = {path.name for path in KUBE_DIR.glob("*.yaml")} - {"kustomization.yaml"}
    assert listed == present


@pytest.mark.parametrize("version", KUBE_VERSIONS)
@pytest.mark.parametrize("doc", load_resources(), ids=lambda doc: f"{doc['kind']}/{doc['metadata']['name']}")
def test_every_manifest_is_valid_for_the_stated_kubernetes_versions(doc, version):
    assert schema_error(doc, version) is None


def test_the_validator_catches_a_misspelled_field():
    deployment = next(doc for doc in load_resources() if doc["kind"] == "Deployment")
    broken = copy.deepcopy(deployment)
    broken["spec"]["replica"] = broken["spec"].pop("replicas")
    assert "replica" in (schema_error(broken) or "")


def test_the_validator_catches_a_wrong_type():
    deployment = next(doc for doc in load_resources() if doc["kind"] == "Deployment")
    broken = copy.deepcopy(deployment)
    broken["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] = "ninety"
    assert schema_error(broken) is not None
