"""Lesson 06's notebook helpers: the compose-shaped stack (a worker per queue, Flower, the API), timing, Flower reads."""
from __future__ import annotations

from functools import partial

import httpx

from celerylab import polling
from celerylab.stack import Stack, WorkerSpec

APP = "celerylab.lessons.l06_architecture.tasks"
WEB = "celerylab.lessons.l06_architecture.web:api"
FLOWER_AUTH = ("admin", "change-me")
SCHEMA = ["CREATE TABLE IF NOT EXISTS users (id INTEGER PRIMARY KEY, name TEXT, plan TEXT)"]

#: The compose file's three worker services, sized for a 2-core machine (compose: -c 4, -c 8, -c 2).
LAYOUT = [
    WorkerSpec(pool="prefork", concurrency=2, queues=("default",), name="default"),
    WorkerSpec(pool="prefork", concurrency=1, queues=("priority",), name="priority"),
    WorkerSpec(pool="prefork", concurrency=2, queues=("heavy",), name="heavy"),
]


def stack_options(**options) -> dict:
    options.setdefault("workers", list(LAYOUT))
    options.setdefault("timeline", False)
    options.setdefault("env", {"FLOWER_BASIC_AUTH": ":".join(FLOWER_AUTH)})
    options.setdefault("database", SCHEMA)
    return options


def start(**options) -> Stack:
    """The lesson's stack: Redis, a prefork worker per queue, Flower (basic auth), the FastAPI producer."""
    stack = Stack.start(APP, **stack_options(**options))
    try:
        stack.add_http_app("api", WEB)
    except BaseException:
        stack.close()
        raise
    return stack


def api(stack: Stack) -> httpx.Client:
    """An HTTP client for the producer (the FastAPI app)."""
    return httpx.Client(base_url=stack.service_url("api"), timeout=10)


def flower(stack: Stack, auth: bool = True) -> httpx.Client:
    """An HTTP client for Flower, with its basic-auth credentials or without them."""
    return httpx.Client(base_url=stack.flower.url, timeout=10, auth=FLOWER_AUTH if auth else None)


until = partial(polling.until, timeout=15.0)  # canvas and Flower's events settle within seconds


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
