"""Each lesson's fix is in deploy/kubernetes/: one Beat with Recreate, grace above the soft shutdown, canary probes, memory, ClusterIP."""
from __future__ import annotations

import json
import os
import re
import subprocess
import sys

import pytest
from kubefiles import KUBE_DIR, container, env_of, load_resources, memory_bytes, of_kind

QUEUES = ("default", "priority", "heavy")


@pytest.fixture(scope="module")
def resources() -> list[dict]:
    return load_resources()


@pytest.fixture(scope="module")
def deployments(resources) -> dict[str, dict]:
    return of_kind(resources, "Deployment")


@pytest.fixture(scope="module")
def workers(deployments) -> dict[str, dict]:
    return {name: doc for name, doc in deployments.items() if "worker" in container(doc)["command"]}


def option(argv: list[str], name: str) -> str:
    """The value of `-x V`/`--name=V` in a command line."""
    for index, part in enumerate(argv):
        if part.startswith(f"{name}="):
            return part.split("=", 1)[1]
        if part == name:
            return argv[index + 1]
    raise KeyError(name)


def soft_shutdown_timeout(one: dict) -> float:
    settings = json.loads(env_of(one).get("CELERYLAB_SETTINGS", {}).get("value", "{}"))
    return float(settings.get("worker_soft_shutdown_timeout", 0))


def test_one_worker_deployment_per_queue(workers):
    """Lesson 06: each queue its own Deployment, sized apart."""
    queues = sorted(option(container(doc)["command"], "-Q") for doc in workers.values())
    assert queues == sorted(QUEUES)


def test_exactly_one_beat_and_it_is_recreated_not_rolled(deployments):
    """Lesson 05: a second Beat publishes every periodic task twice; RollingUpdate briefly runs two."""
    beats = [doc for doc in deployments.values() if "beat" in container(doc)["command"]]
    assert len(beats) == 1
    (beat,) = beats
    assert beat["spec"]["replicas"] == 1
    assert beat["spec"]["strategy"]["type"] == "Recreate"
    assert not any("-B" in container(doc)["command"] or "--beat" in container(doc)["command"]
                   for doc in deployments.values())


def test_sigterm_starts_the_soft_shutdown_and_the_grace_outlasts_it(workers):
    """Lesson 02: REMAP_SIGTERM=SIGQUIT plus worker_soft_shutdown_timeout, and the kubelet's SIGKILL comes later."""
    for name, doc in workers.items():
        one = container(doc)
        assert env_of(one)["REMAP_SIGTERM"]["value"] == "SIGQUIT", name
        timeout = soft_shutdown_timeout(one)
        assert timeout > 0, name
        assert doc["spec"]["template"]["spec"]["terminationGracePeriodSeconds"] > timeout, name


def test_the_probes_run_the_canary_through_the_workers_own_queue(workers):
    """Lesson 07: a canary task through the queue, not a bare `inspect ping` that a stuck worker still answers."""
    for name, doc in workers.items():
        one = container(doc)
        queue = option(one["command"], "-Q")
        assert option(one["command"], "-n") == f"{queue}@%h", name
        for probe in ("readinessProbe", "livenessProbe"):
            line = " ".join(one[probe]["exec"]["command"])
            assert "inspect" not in line and "ping" not in line, (name, probe)
            assert re.search(rf"-m celerylab\.deploy\.canary --queue {queue} --node {queue}@\$HOSTNAME --timeout (\d+)",
                             line), (name, probe)
            timeout = float(re.search(r"--timeout (\d+)", line).group(1))
            assert one[probe]["timeoutSeconds"] > timeout, (name, probe)


def test_memory_limit_is_above_every_child_at_its_maximum(workers):
    """Lesson 07: the worker replaces a child past worker_max_memory_per_child before the container's limit kills the pod."""
    for name, doc in workers.items():
        one = container(doc)
        per_child_kib = int(option(one["command"], "--max-memory-per-child"))
        concurrency = int(option(one["command"], "-c"))
        assert memory_bytes(one["resources"]["limits"]["memory"]) > concurrency * per_child_kib * 1024, name


def test_secrets_hold_the_broker_url_and_flowers_credentials(resources, deployments):
    (secret,) = of_kind(resources, "Secret").values()
    assert {"REDIS_URL", "FLOWER_BASIC_AUTH"} <= set(secret["stringData"])
    for name, doc in deployments.items():
        env = env_of(container(doc))
        for key in ("REDIS_URL", "FLOWER_BASIC_AUTH"):
            if key in env:
                assert "value" not in env[key], (name, key)
                assert env[key]["valueFrom"]["secretKeyRef"]["name"] == secret["metadata"]["name"], (name, key)
    assert "FLOWER_BASIC_AUTH" in env_of(container(deployments["flower"]))


def test_nothing_is_published_beyond_the_cluster(resources):
    services = of_kind(resources, "Service")
    assert set(services) == {"redis", "flower"}
    assert all(doc["spec"].get("type", "ClusterIP") == "ClusterIP" for doc in services.values())
    assert not [doc for doc in resources if doc["kind"] in ("Ingress", "Route", "Gateway")]
    for doc in of_kind(resources, "Deployment").values():
        pod = doc["spec"]["template"]["spec"]
        assert not pod.get("hostNetwork") and not any("hostPort" in port for port in container(doc).get("ports", []))


def test_every_fix_names_its_lesson():
    text = {path.name: path.read_text(encoding="utf-8") for path in KUBE_DIR.glob("*.yaml")}
    assert "lesson 05" in text["beat.yaml"]
    assert {"lesson 02", "lesson 06", "lesson 07"} <= set(re.findall(r"lesson 0\d", text["workers.yaml"]))


def test_the_workers_environment_reaches_the_apps_settings(workers):
    """CELERYLAB_SETTINGS is read by the deploy app: the soft shutdown timeout is Celery's, not only the manifest's."""
    one = container(workers["worker-default"])
    env = {**os.environ, "CELERYLAB_SETTINGS": env_of(one)["CELERYLAB_SETTINGS"]["value"]}
    shown = subprocess.run([sys.executable, "-c", "from celerylab.deploy.app import app; "
                            "print(app.conf.worker_soft_shutdown_timeout)"],
                           env=env, capture_output=True, text=True, timeout=120, check=True).stdout
    assert float(shown) == soft_shutdown_timeout(one) > 0


def test_only_the_celerylab_pods_reach_redis(resources, deployments):
    (policy,) = of_kind(resources, "NetworkPolicy").values()
    redis_labels = deployments["redis"]["spec"]["template"]["metadata"]["labels"]
    assert policy["spec"]["podSelector"]["matchLabels"] == redis_labels
    assert policy["spec"]["policyTypes"] == ["Ingress"]
    (rule,) = policy["spec"]["ingress"]
    (source,) = rule["from"]
    allowed = source["podSelector"]["matchLabels"]
    for name, doc in deployments.items():
        labels = doc["spec"]["template"]["metadata"]["labels"]
        assert allowed.items() <= labels.items(), name
    assert rule["ports"] == [{"protocol": "TCP", "port": 6379}]
