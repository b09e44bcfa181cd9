"""celerylab.stack.monitoring: configs rendered from deploy/monitoring, and a real alert from Prometheus to Alertmanager."""
from __future__ import annotations

import gc
import subprocess
import time

import pytest
import yaml

from celerylab import polling
from celerylab.lessons.l06_architecture import helpers, tasks
from celerylab.stack import monitoring


def rules_of(text: str) -> dict:
    return {rule["alert"]: rule for group in yaml.safe_load(text)["groups"] for rule in group["rules"]}


def test_rendered_rules_change_only_the_hold():
    shipped = rules_of(monitoring.RULES.read_text(encoding="utf-8"))
    rendered = rules_of(monitoring.render_rules(hold="10s"))
    assert rendered["CeleryRetryStorm"]["for"] == "10s"
    assert "for" not in rendered["CeleryTaskFailing"]  # a rule without `for:` gets none
    for name, rule in shipped.items():
        assert {k: v for k, v in rendered[name].items() if k != "for"} == {k: v for k, v in rule.items() if k != "for"}
    assert rules_of(monitoring.render_rules()) == shipped


def test_rendered_alertmanager_changes_only_group_wait():
    shipped = yaml.safe_load(monitoring.ALERTMANAGER_CONFIG.read_text(encoding="utf-8"))
    rendered = yaml.safe_load(monitoring.render_alertmanager(group_wait="1s"))
    assert shipped["route"]["group_wait"] == "30s" and rendered["route"]["group_wait"] == "1s"
    rendered["route"]["group_wait"] = "30s"
    assert rendered == shipped


def test_flower_auth_is_the_first_user():
    assert monitoring.flower_auth({"FLOWER_BASIC_AUTH": "admin:change-me"}) == ("admin", "change-me")
    assert monitoring.flower_auth({"FLOWER_BASIC_AUTH": "ana:a:b,bia:c"}) == ("ana", "a:b")
    assert monitoring.flower_auth({}) is None


def test_missing_programs_are_named_and_the_lesson_skips_with_the_reason(monkeypatch, capsys):
    monkeypatch.setattr(monitoring.shutil, "which", lambda name: None)
    assert monitoring.missing() == ["prometheus", "prometheus-alertmanager"]
    assert helpers.start_monitoring(stack=None) is None  # starts nothing: no stack needed
    printed = capsys.readouterr().out
    assert "prometheus, prometheus-alertmanager" in printed and "apt-get install" in printed


@pytest.mark.needs("promtool")
def test_promtool_accepts_the_generated_prometheus_config(tmp_path):
    rules = tmp_path / "celery-rules.yml"
    rules.write_text(monitoring.render_rules(hold="10s"), encoding="utf-8")
    config = tmp_path / "prometheus.yml"
    config.write_text(monitoring.prometheus_config("127.0.0.1:5555", "127.0.0.1:9093", rules, "1s",
                                                   ("admin", "change-me")), encoding="utf-8")
    result = subprocess.run(["promtool", "check", "config", str(config)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
    job = yaml.safe_load(config.read_text())["scrape_configs"][0]
    assert job["basic_auth"] == {"username": "admin", "password": "change-me"}
    assert "SUCCESS: 2 rules found" in result.stdout


@pytest.mark.needs("amtool")
def test_amtool_accepts_the_rendered_alertmanager_config(tmp_path):
    config = tmp_path / "alertmanager.yml"
    config.write_text(monitoring.render_alertmanager(group_wait="1s"), encoding="utf-8")
    result = subprocess.run(["amtool", "check-config", str(config)], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.live
@pytest.mark.needs("real-redis", "prometheus", "alertmanager")
def test_a_burst_fires_both_rules_from_prometheus_into_alertmanager():
    """Lesson 06's burst on its stack: CeleryRetryStorm goes pending, then firing, then reaches the Alertmanager;
    CeleryTaskFailing (no `for:`) goes straight to firing. The first failure of a task whose series does not
    exist yet fires nothing: the series is born at 1 and increase() sees no rise."""
    with helpers.start(flower=True) as stack:
        flower = helpers.flower(stack)
        tasks.capture.delay(0).get(timeout=30)  # the capture's series are born before Prometheus scrapes them
        assert polling.until(lambda: _events(flower, "payment.capture", "task-succeeded"), timeout=30)
        monitor = monitoring.start(stack, interval="1s", hold="10s", group_wait="1s")
        assert stack.services["prometheus"].alive and stack.services["alertmanager"].alive
        assert polling.until(lambda: [t for t in monitor.targets() if t["health"] == "up"], timeout=60)
        tasks.refund.delay(0).get(timeout=30, propagate=False)  # a task's first failure, its series born at 1
        failed = 'flower_events_total{task="payment.refund", type="task-failed"}'
        assert polling.until(lambda: monitor.query(f"count_over_time({failed}[1m]) >= 3"), timeout=60)
        evaluated_after = time.time()
        assert polling.until(lambda: all(_evaluated(rule, evaluated_after) for rule in monitor.rules()), timeout=60)
        assert {rule["name"]: rule["state"] for rule in monitor.rules()} == {
            "CeleryTaskFailing": "inactive", "CeleryRetryStorm": "inactive"}
        assert monitor.received() == []

        started = time.time()
        burst = [tasks.capture.delay(order) for order in range(5)] + [tasks.refund.delay(order) for order in range(3)]
        seen = monitor.timeline(started, received=2, timeout=120)
        for result in burst:
            result.get(timeout=30, propagate=False)
        held = {alert["labels"]["alertname"]: alert for alert in monitor.received()}
        monitor.stop()
        del burst, result
        gc.collect()  # the results reclaimed while Redis is up (before Celery 5.7, each one later waits ~19 s)

    storm, failing = seen[("CeleryRetryStorm", "payment.capture")], seen[("CeleryTaskFailing", "payment.refund")]
    assert list(storm) == ["pending", "firing", "received"]
    assert storm["pending"] < storm["firing"] <= storm["received"]
    assert list(failing) == ["firing", "received"]  # no `for:`: never seen pending
    assert failing["firing"] <= failing["received"]
    assert set(seen) == {("CeleryRetryStorm", "payment.capture"), ("CeleryTaskFailing", "payment.refund")}
    assert held["CeleryTaskFailing"]["labels"] == {"alertname": "CeleryTaskFailing", "task": "payment.refund",
                                                   "severity": "page"}
    assert held["CeleryRetryStorm"]["labels"] == {"alertname": "CeleryRetryStorm", "task": "payment.capture"}
    assert all(alert["status"]["state"] == "active" and alert["receivers"] == [{"name": "course"}]
               for alert in held.values())


def _events(flower, task: str, kind: str) -> float:
    samples = helpers.metric_values(flower.get("/metrics").text, "flower_events_total")
    return sum(value for labels, value in samples.items() if f"task={task}" in labels and f"type={kind}" in labels)


def _evaluated(rule: dict, after: float) -> bool:
    """The rule's last evaluation is later than `after` (``time.time()``)."""
    from datetime import datetime

    stamp = rule.get("lastEvaluation", "")
    return bool(stamp) and not stamp.startswith("0001") and datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp() > after
