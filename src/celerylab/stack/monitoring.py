"""Prometheus and Alertmanager as private nodes of a stack: configs rendered from deploy/monitoring, free ports, their APIs."""
from __future__ import annotations

import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

import httpx
import yaml

from celerylab.polling import until
from celerylab.stack.nodes import HttpNode, on_free_port

#: The course's own monitoring files (the compose profile's): the rules are loaded from here, not copied.
DEPLOY = Path(__file__).resolve().parents[3] / "deploy" / "monitoring"
RULES = DEPLOY / "celery-rules.yml"
ALERTMANAGER_CONFIG = DEPLOY / "alertmanager.yml"
#: Debian's program names (.ci/setup-prometheus), then upstream's.
PROGRAMS = {"prometheus": ("prometheus",), "alertmanager": ("prometheus-alertmanager", "alertmanager")}
READY_TIMEOUT = 30.0


def program(role: str) -> str | None:
    """The path of the `role` program ("prometheus" or "alertmanager") on PATH, or None."""
    return next((path for name in PROGRAMS[role] if (path := shutil.which(name))), None)


def missing() -> list[str]:
    """What this machine lacks to run the monitoring nodes: program names, or the course's rule file."""
    absent = [PROGRAMS[role][0] for role in PROGRAMS if program(role) is None]
    return absent + ([str(RULES)] if not RULES.is_file() else [])


def render_rules(source: Path = RULES, hold: str | None = None) -> str:
    """The shipped rule file with only each rule's ``for:`` replaced by `hold` (None: unchanged)."""
    rules = yaml.safe_load(source.read_text(encoding="utf-8"))
    if hold is not None:
        for group in rules["groups"]:
            for rule in group["rules"]:
                if "for" in rule:
                    rule["for"] = hold
    return yaml.safe_dump(rules, sort_keys=False, allow_unicode=True)


def render_alertmanager(source: Path = ALERTMANAGER_CONFIG, group_wait: str | None = None) -> str:
    """The shipped Alertmanager config with only the route's ``group_wait`` replaced (None: unchanged)."""
    config = yaml.safe_load(source.read_text(encoding="utf-8"))
    if group_wait is not None:
        config["route"]["group_wait"] = group_wait
    return yaml.safe_dump(config, sort_keys=False)


def prometheus_config(flower: str, alertmanager: str, rules: Path, interval: str,
                      auth: tuple[str, str] | None = None) -> str:
    """Prometheus scraping one Flower (``host:port``) every `interval`, evaluating `rules`, alerting `alertmanager`."""
    job = {"job_name": "flower", "metrics_path": "/metrics", "static_configs": [{"targets": [flower]}]}
    if auth:
        job["basic_auth"] = {"username": auth[0], "password": auth[1]}
    config = {"global": {"scrape_interval": interval, "evaluation_interval": interval},
              "rule_files": [str(rules)],
              "alerting": {"alertmanagers": [{"static_configs": [{"targets": [alertmanager]}]}]},
              "scrape_configs": [job]}
    return yaml.safe_dump(config, sort_keys=False)


def flower_auth(env: dict[str, str]) -> tuple[str, str] | None:
    """The first user of ``FLOWER_BASIC_AUTH`` (``user:password[,user:password]``), or None."""
    value = env.get("FLOWER_BASIC_AUTH", "")
    if ":" not in value:
        return None
    user, password = value.split(",")[0].split(":", 1)
    return user, password


@dataclass
class Monitoring:
    """A stack's Prometheus and Alertmanager, and what their HTTP APIs say."""

    prometheus: HttpNode
    alertmanager: HttpNode
    interval: str
    hold: str | None
    group_wait: str | None
    rules_path: Path
    _http: httpx.Client = field(default_factory=lambda: httpx.Client(timeout=5))

    def _get(self, url: str, **params) -> dict | list:
        response = self._http.get(url, params=params)
        response.raise_for_status()
        return response.json()

    def query(self, expr: str) -> list[dict]:
        """An instant PromQL query: the result vector (``[{"metric": {...}, "value": [t, "v"]}]``)."""
        return self._get(f"{self.prometheus.url}/api/v1/query", query=expr)["data"]["result"]

    def series(self, metric: str) -> list[dict]:
        """The label sets of every series of `metric` Prometheus holds (``/api/v1/series``)."""
        return self._get(f"{self.prometheus.url}/api/v1/series", **{"match[]": metric})["data"]

    def targets(self) -> list[dict]:
        """Prometheus' active scrape targets (``health`` is "up" once a scrape succeeded)."""
        return self._get(f"{self.prometheus.url}/api/v1/targets")["data"]["activeTargets"]

    def rules(self) -> list[dict]:
        """Every alerting rule as Prometheus evaluates it: ``name``, ``state`` (inactive/pending/firing), alerts."""
        groups = self._get(f"{self.prometheus.url}/api/v1/rules", type="alert")["data"]["groups"]
        return [rule for group in groups for rule in group["rules"]]

    def alerts(self) -> list[dict]:
        """Prometheus' active alerts (pending and firing), with labels, ``state`` and ``activeAt``."""
        return self._get(f"{self.prometheus.url}/api/v1/alerts")["data"]["alerts"]

    def received(self) -> list[dict]:
        """The alerts the Alertmanager holds (its ``/api/v2/alerts``), with labels and ``status``."""
        return self._get(f"{self.alertmanager.url}/api/v2/alerts")

    def timeline(self, started_at: float, received: int, timeout: float = 90.0, step: float = 0.2) -> dict:
        """Seconds from `started_at` (``time.time()``) to the first poll that saw each alert in each stage.

        {(alertname, task): {"pending": s, "firing": s, "received": s}}, until `received` alerts reached the
        Alertmanager or `timeout` passed. Each poll reads the Alertmanager first, then Prometheus: an alert
        the Alertmanager holds was firing before Prometheus is read, so a stage is never seen before the
        previous one (a rule without ``for:`` goes from inactive to firing in one evaluation: no pending).
        """
        seen: dict[tuple, dict[str, float]] = {}

        def poll() -> bool:
            """Record what this poll saw; True once `received` alerts reached the Alertmanager."""
            held = self.received()
            active = self.alerts()
            now = round(time.time() - started_at, 2)
            for alert, stage in [*((a, a["state"]) for a in active), *((a, "received") for a in held)]:
                labels = alert["labels"]
                seen.setdefault((labels["alertname"], labels.get("task", "")), {}).setdefault(stage, now)
            return sum("received" in stages for stages in seen.values()) >= received

        until(poll, timeout, step)
        return seen

    def stop(self) -> None:
        """Stop both servers (the stack also stops them when it closes)."""
        self._http.close()
        for node in (self.prometheus, self.alertmanager):
            node.stop(timeout=2)


def _spawn(stack, name: str, argv_for) -> HttpNode:
    """Start one server, ready when its ``/-/ready`` answers 200, on a free port (another if that one was taken)."""
    node = on_free_port(lambda port: stack.start_node(
        HttpNode, name, argv_for(f"127.0.0.1:{port}"), None, timeout=READY_TIMEOUT, url=f"http://127.0.0.1:{port}",
        ready_path="/-/ready"))
    stack.services[name] = node  # stopped with the stack, by pid; listed in stack.processes()
    return node


def start(stack, *, interval: str = "1s", hold: str | None = None, group_wait: str | None = "1s") -> Monitoring:
    """Start an Alertmanager, then a Prometheus scraping the stack's Flower and evaluating the course's rules.

    interval: scrape and evaluation interval (production: 15 s to 60 s). hold: each rule's ``for:`` in the
    rendered rule file (None: the shipped one's). group_wait: the Alertmanager route's (None: the shipped 30 s).
    Raises StackError("stack.not_found") when a program is missing: check ``missing()`` first.
    """
    if stack.flower is None:
        raise ValueError("the stack has no Flower to scrape: start it with flower=True")
    folder = stack.workdir / "monitoring"
    folder.mkdir(exist_ok=True)
    am_config = folder / "alertmanager.yml"
    am_config.write_text(render_alertmanager(group_wait=group_wait), encoding="utf-8")
    alertmanager = _spawn(stack, "alertmanager", lambda address: [
        program("alertmanager") or PROGRAMS["alertmanager"][0], f"--config.file={am_config}",
        f"--storage.path={folder / 'alertmanager-data'}", f"--web.listen-address={address}",
        "--cluster.listen-address=", "--log.level=info"])
    rules = folder / "celery-rules.yml"
    rules.write_text(render_rules(hold=hold), encoding="utf-8")
    config = folder / "prometheus.yml"
    flower = stack.flower.url.removeprefix("http://")
    am_address = alertmanager.url.removeprefix("http://")

    def prometheus_argv(address: str) -> list[str]:
        config.write_text(prometheus_config(flower, am_address, rules, interval, flower_auth(stack.process_env())),
                          encoding="utf-8")
        return [program("prometheus") or PROGRAMS["prometheus"][0], f"--config.file={config}",
                f"--storage.tsdb.path={folder / 'prometheus-data'}", f"--web.listen-address={address}",
                "--log.level=info"]

    try:
        prometheus = _spawn(stack, "prometheus", prometheus_argv)
    except BaseException:
        alertmanager.stop(timeout=1)
        stack.services.pop("alertmanager", None)
        raise
    return Monitoring(prometheus, alertmanager, interval, hold, group_wait, rules)
