"""Lesson 06's notebook helpers: the compose-shaped stack (a worker per queue, Flower, the API), timing, Flower reads,
Prometheus and Alertmanager beside it."""
from __future__ import annotations

import re
import time
from concurrent.futures import ThreadPoolExecutor
from functools import partial

import httpx

from celerylab import polling
from celerylab.i18n import t
from celerylab.stack import Stack, StackSpec, WorkerSpec, monitoring
from celerylab.stack.celery_commands import FLOWER_READY, flower_argv
from celerylab.stack.errors import StackError
from celerylab.stack.nodes import FlowerNode
from celerylab.stack.ports import free_port

APP = "celerylab.lessons.l06_architecture.tasks"
WEB = "celerylab.lessons.l06_architecture.web:api"
FLOWER_AUTH = ("admin", "change-me")
SCHEMA = ["CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT, plan TEXT)",
          "CREATE TABLE IF NOT EXISTS errbacks (kind TEXT, error TEXT)"]  # what each chord errback received

#: The compose file's three worker services, sized for a 2-core machine (compose: -c 4, -c 8, -c 2).
LAYOUT = [
    WorkerSpec(pool="prefork", concurrency=2, queues=("default",), name="default"),
    WorkerSpec(pool="prefork", concurrency=1, queues=("priority",), name="priority"),
    WorkerSpec(pool="prefork", concurrency=2, queues=("heavy",), name="heavy"),
]


#: Redis, a prefork worker per queue, Flower's basic auth (Flower itself: ``flower=True``), the users table, the
#: FastAPI producer (``stack.service_url("api")``); no event timeline.
SPEC = StackSpec(APP, workers=LAYOUT, timeline=False, env={"FLOWER_BASIC_AUTH": ":".join(FLOWER_AUTH)},
                 database=SCHEMA, http_apps={"api": WEB})


def start(**changes) -> Stack:
    """The lesson's stack (SPEC, with `changes`): Redis, a prefork worker per queue, Flower if asked, the API."""
    return Stack.start(SPEC, **changes)


def api(stack: Stack) -> httpx.Client:
    """An HTTP client for the producer (the FastAPI app)."""
    return httpx.Client(base_url=stack.service_url("api"), timeout=10)


def task_id_from(response: httpx.Response, stack: Stack | None = None) -> str:
    """The task id a POST to the API answered with; when the API did not answer one (an error status, a body
    without `task_id`), a StackError that names the request, its HTTP status and body, and the API's log tail."""
    if response.is_success:
        try:
            task_id = response.json()["task_id"]
        except (ValueError, KeyError, TypeError):
            task_id = None
        if isinstance(task_id, str) and task_id:
            return task_id
    service = stack.services.get("api") if stack is not None else None
    log = service.tail() if service is not None and hasattr(service, "tail") else ""
    raise StackError("l06.api.no_task_id", log, method=response.request.method, path=response.request.url.path,
                     status=response.status_code, body=response.text.strip()[:300] or "-")


def flower(stack: Stack, auth: bool = True) -> httpx.Client:
    """An HTTP client for Flower, with its basic-auth credentials or without them."""
    return client(stack.flower.url, FLOWER_AUTH if auth else None)


def flower_saw(stack: Stack, result, timeout: float = 10.0) -> bool:
    """Once the task has run, whether Flower knows it (its API answers for its id): it saw the task's events."""
    result.get(timeout=timeout)
    with flower(stack) as api:
        return bool(polling.until(lambda: api.get(f"/api/task/info/{result.id}").status_code == 200, timeout=timeout))


def client(url: str, auth: tuple[str, str] | None = None) -> httpx.Client:
    """An HTTP client for one address (a Flower), with basic-auth credentials or none."""
    return httpx.Client(base_url=url, timeout=10, auth=auth)


def open_flower(stack: Stack) -> FlowerNode:
    """A second Flower on the stack's broker with no user or password at all (the notes' compose); stop it after."""
    port = free_port()
    env = stack.process_env()
    env.pop("FLOWER_BASIC_AUTH", None)
    env.pop("FLOWER_UNAUTHENTICATED_API", None)
    node = FlowerNode("flower-open", flower_argv(APP, port, str(stack.workdir / "flower-open.db")), env=env,
                      cwd=stack.workdir, log_path=stack.workdir / "flower-open.log", ready_pattern=FLOWER_READY,
                      ready_timeout=30.0, url=f"http://127.0.0.1:{port}")
    return node.start()


until = partial(polling.until, timeout=15.0)  # canvas and Flower's events settle within seconds


def received_by(stack: Stack, result, timeout: float = 15) -> str | None:
    """The worker whose log says it received this task (waits for it): it holds the message now."""
    needle = f"[{result.id}] received"
    found = until(lambda: next((w.hostname for w in stack.workers if needle in w.logs), None), timeout=timeout)
    return found if found is None or "@" in found else f"celery@{found}"


def route_table(routes) -> dict | str:
    """task_routes as a mapping of task names (or patterns) to a queue, {name: queue} (a route is a queue's name or
    {'queue': name}), or what it is instead (its repr, without addresses). The same for the routes a producer process
    holds and for a worker's, as ``inspect().conf()`` answers them (JSON; what is not JSON comes as its repr)."""
    def queue(route) -> str | None:
        if type(route) is str:
            return route
        if type(route) is dict and list(route) == ["queue"] and type(route["queue"]) is str:
            return route["queue"]
        return None

    if type(routes) is dict and all(type(key) is str and queue(route) for key, route in routes.items()):
        return {key: queue(route) for key, route in routes.items()}
    return re.sub(r" (object )?at 0x[0-9a-fA-F]+", "", repr(routes))[:300]


def receiver_of(stack: Stack, task_id: str, timeout: float = 10) -> str:
    """The name of the worker that received this task (``heavy`` for ``celery@heavy@host``), "-" if none in time."""
    holder = received_by(stack, stack.app.AsyncResult(task_id), timeout=timeout)
    return (holder or "-").removeprefix("celery@").split("@")[0]


def add_workers(stack: Stack, specs: list[WorkerSpec]) -> None:
    """Start these workers on the stack, all at once."""
    with ThreadPoolExecutor(max_workers=max(1, len(specs))) as pool:
        list(pool.map(stack.add_worker, specs))


def add_pairs(stack: Stack, cases: dict[str, dict]) -> dict[str, str]:
    """Two prefork -c 1 workers per case (its settings), consuming a queue of their own ('pf-<case>'): {case: queue}."""
    add_workers(stack, [WorkerSpec(pool="prefork", concurrency=1, queues=(f"pf-{case}",), name=f"{case}-{i}",
                                   settings=settings) for case, settings in cases.items() for i in (1, 2)])
    return {case: f"pf-{case}" for case in cases}


def stop_workers(stack: Stack, prefix: str) -> None:
    """Stop (SIGTERM, all at once) the workers whose first queue starts with `prefix`; the compose layout stays."""
    added = [w for w in stack.workers if w.spec.queues and w.spec.queues[0].startswith(prefix)]
    with ThreadPoolExecutor(max_workers=max(1, len(added))) as pool:
        list(pool.map(lambda worker: worker.terminate(), added))


def waits(sent_at: dict, results: dict, timeout: float = 30) -> dict:
    """Seconds each task waited: from its send to the start time it returned (same machine, same clock)."""
    return {key: results[key].get(timeout=timeout) - sent_at[key] for key in results}


def welcome_wait(result, sent_at: float, timeout: float = 30) -> float:
    """Seconds between sending the welcome e-mail and its start on a worker."""
    return result.get(timeout=timeout)["started_at"] - sent_at


def delivered_to(result, timeout: float = 30) -> str:
    """The queue a finished task's message arrived on, as the worker recorded it (Flower-free: the backend)."""
    result.get(timeout=timeout, propagate=False)
    return result._get_task_meta().get("queue") or "?"


def metric_values(text: str, name: str) -> dict[tuple, float]:
    """Samples of one Prometheus metric from Flower's /metrics text: {(label=value, ...): value}."""
    samples = {}
    for line in text.splitlines():
        if line.startswith(name + "{"):
            labels, value = line[len(name) + 1:].rsplit("} ", 1)
            pairs = tuple(sorted(part.split("=", 1)[0] + "=" + part.split("=", 1)[1].strip('"')
                                 for part in labels.split('",') if part))
            samples[pairs] = float(value)
    return samples


#: The Workers view's count columns (flower/templates/workers.html) and the counter each one shows; Retried is no
#: column. Active is left out: it moves with the order in which Flower takes in each try's events.
WORKERS_VIEW = {"Processed": "task-received", "Failed": "task-failed", "Succeeded": "task-succeeded",
                "(task-retried)": "task-retried"}
#: The series the Grafana dashboard in Flower's repository plots (examples/celery-monitoring-grafana-dashboard.json).
DASHBOARD_SERIES = ("flower_worker_online", "flower_worker_number_of_currently_executing_tasks",
                    "flower_task_queuing_time_at_worker_seconds", "flower_events_total")


def workers_view(flower: httpx.Client) -> dict[str, dict[str, int]]:
    """Flower's main view, the Workers table, as its own page reads it (``/workers?json=1``): counters per worker."""
    response = flower.get("/workers", params={"json": 1})
    rows = response.json()["data"] if response.status_code == 200 else []
    return {row["hostname"]: {column: int(row.get(counter) or 0) for column, counter in WORKERS_VIEW.items()}
            for row in rows}


def default_row_grew(flower: httpx.Client, before: dict[str, dict[str, int]], ended: int) -> dict[str, int] | None:
    """How much each column of the default worker's row grew since `before`, once `ended` more tasks ended there."""
    def row(view: dict) -> dict[str, int]:
        return next((counts for name, counts in view.items() if name.startswith("celery@default")), {})

    now, then = row(workers_view(flower)), row(before)
    delta = {column: now.get(column, 0) - then.get(column, 0) for column in WORKERS_VIEW}
    return delta if delta["Succeeded"] + delta["Failed"] >= ended else None


def failed_events(flower: httpx.Client, task: str) -> float:
    """The task-failed events Flower's /metrics counts for one task (every worker)."""
    return sum(value for labels, value in metric_values(flower.get("/metrics").text, "flower_events_total").items()
               if f"task={task}" in labels and "type=task-failed" in labels)


def settled(read, rounds: int = 10, step: float = 1.0) -> float:
    """A count once it stopped moving (unchanged for `step` s; at most `rounds` reads): Flower takes events in late."""
    count = read()
    for _ in range(rounds):
        time.sleep(step)
        count, previous = read(), count
        if count == previous:
            break
    return count


#: The stages of an alert, in the order a rule with ``for:`` goes through them (Prometheus, then the Alertmanager).
STAGES = ("pending", "firing", "received")


def start_monitoring(stack: Stack, hold: str = "10s", interval: str = "1s") -> monitoring.Monitoring | None:
    """A Prometheus scraping the stack's Flower and an Alertmanager (celerylab.stack.monitoring), once Prometheus
    has scraped Flower; None, with the reason printed, where their programs are missing."""
    absent = monitoring.missing()
    if absent:
        print(t("l06.monitoring.missing", programs=", ".join(absent)))
        return None
    monitor = monitoring.start(stack, interval=interval, hold=hold)
    polling.until(lambda: (targets := monitor.targets()) and all(target["health"] == "up" for target in targets),
                  timeout=60)
    return monitor


def alert_rows(seen: dict) -> list[dict]:
    """One row per alert of Monitoring.timeline(): the seconds to each stage, "-" for a stage it never showed."""
    return [{"alert": name, "task": task, **{stage: stages.get(stage, "-") for stage in STAGES}}
            for (name, task), stages in sorted(seen.items())]


def per_worker(monitor: monitoring.Monitoring, window: str = "5m") -> list[dict]:
    """Per worker, over `window`: failures, tasks that ended (failed + succeeded), tries (task-received), and
    the failure ratio per ended task and per try, as Prometheus computes them from Flower's counters."""
    def by_worker(types: str) -> dict[str, float]:
        expr = f'sum by (worker) (increase(flower_events_total{{type=~"{types}"}}[{window}]))'
        return {sample["metric"]["worker"]: float(sample["value"][1]) for sample in monitor.query(expr)}

    failed, ended, tries = by_worker("task-failed"), by_worker("task-failed|task-succeeded"), by_worker("task-received")
    return [{"worker": worker, "failed": round(failed[worker], 1), "ended": round(ended.get(worker, 0), 1),
             "tries": round(tries.get(worker, 0), 1),
             "per_task": round(failed[worker] / ended[worker], 2) if ended.get(worker) else "-",
             "per_try": round(failed[worker] / tries[worker], 2) if tries.get(worker) else "-"}
            for worker in sorted(failed) if failed[worker] > 0]
