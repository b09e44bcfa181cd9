"""docker-compose.yml's `monitoring` profile: Prometheus scraping Flower with its credentials, Alertmanager, 127.0.0.1 only."""
from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
import yaml
from composefile import ROOT, load_compose, read_env_file

MONITORING = ROOT / "deploy" / "monitoring"
MOUNT = "/etc/celerylab-monitoring"


@pytest.fixture(scope="module")
def compose() -> dict:
    return load_compose()


@pytest.fixture(scope="module")
def prometheus_config() -> dict:
    return yaml.safe_load((MONITORING / "prometheus.yml").read_text(encoding="utf-8"))


def test_prometheus_and_alertmanager_only_with_the_profile_and_on_loopback(compose):
    services = compose["services"]
    monitoring = {name for name, service in services.items() if service.get("profiles") == ["monitoring"]}
    assert monitoring == {"prometheus", "alertmanager"}
    assert services["prometheus"]["image"] == "prom/prometheus:v2.42.0"  # Debian bookworm's release
    assert services["alertmanager"]["image"] == "prom/alertmanager:v0.25.0"
    assert services["prometheus"]["ports"] == ["127.0.0.1:9090:9090"]
    assert services["alertmanager"]["ports"] == ["127.0.0.1:9093:9093"]
    for name, service in services.items():
        if name not in monitoring:
            assert not set(service.get("depends_on", {})) & monitoring, name


def test_both_read_the_repositorys_monitoring_folder(compose):
    for name in ("prometheus", "alertmanager"):
        assert f"./deploy/monitoring:{MOUNT}:ro" in compose["services"][name]["volumes"], name


def test_prometheus_scrapes_flower_with_its_credentials(compose, prometheus_config):
    (job,) = prometheus_config["scrape_configs"]
    assert job["static_configs"] == [{"targets": ["flower:5555"]}] and job["metrics_path"] == "/metrics"
    assert job["basic_auth"] == {"username": "FLOWER_USER", "password_file": "/tmp/flower-password"}
    prometheus = compose["services"]["prometheus"]
    assert prometheus["environment"]["FLOWER_BASIC_AUTH"] == read_env_file()["FLOWER_BASIC_AUTH"]
    assert prometheus["depends_on"] == {"flower": {"condition": "service_healthy"}}


def test_prometheus_evaluates_lesson_06s_rules_and_alerts_the_alertmanager(prometheus_config):
    assert prometheus_config["rule_files"] == [f"{MOUNT}/celery-rules.yml"]
    (manager,) = prometheus_config["alerting"]["alertmanagers"]
    assert manager["static_configs"] == [{"targets": ["alertmanager:9093"]}]


def start_script(compose: dict, scratch: Path) -> str:
    """The prometheus service's start-up script, pointed at this checkout and `scratch`, checking instead of serving."""
    service = compose["services"]["prometheus"]
    assert service["entrypoint"] == ["/bin/sh", "-c"]
    (script,) = service["command"]
    # the container's /tmp first: this checkout may itself live under /tmp
    script = script.replace("/tmp/", f"{scratch}/").replace(MOUNT, str(MONITORING))
    assert "exec /bin/prometheus --config.file=" in script
    return script.split("exec /bin/prometheus")[0] + f"exec promtool check config {scratch}/prometheus.yml\n"


@pytest.mark.needs("promtool")
def test_the_start_up_script_gives_prometheus_a_valid_config_with_flowers_credentials(compose, tmp_path):
    user, password = read_env_file()["FLOWER_BASIC_AUTH"].split(":", 1)
    rendered = tmp_path / "prometheus.yml"
    # promtool resolves rule_files as written: the rendered config must name this checkout's rules
    script = start_script(compose, tmp_path).replace(
        f"> {tmp_path}/prometheus.yml",
        f"| sed 's#{MOUNT}#{MONITORING}#' > {rendered}")
    result = subprocess.run(["/bin/sh", "-c", script], env={"FLOWER_BASIC_AUTH": f"{user}:{password}",
                                                           "PATH": "/usr/bin:/bin"},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "SUCCESS" in result.stdout and "2 rules found" in result.stdout
    assert (tmp_path / "flower-password").read_text() == password
    job = yaml.safe_load(rendered.read_text())["scrape_configs"][0]
    assert job["basic_auth"]["username"] == user


@pytest.mark.needs("amtool")
def test_amtool_checks_the_alertmanager_config():
    result = subprocess.run(["amtool", "check-config", str(MONITORING / "alertmanager.yml")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
