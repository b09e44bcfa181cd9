"""A one-task Celery app the doctor command and the stack tests start workers with."""
from __future__ import annotations

import os
import time

from celerylab.stack.appconfig import create_app

app = create_app("celerylab-smoke")
app.conf.beat_schedule = {
    "smoke-tick": {"task": "celerylab.smoke.tick", "schedule": float(os.environ.get("SMOKE_TICK", "0.5"))},
}


@app.task(name="celerylab.smoke.ping")
def ping() -> str:
    return "pong"


@app.task(name="celerylab.smoke.add")
def add(x: int, y: int) -> int:
    return x + y


@app.task(name="celerylab.smoke.whoami")
def whoami() -> dict:
    return {"pid": os.getpid(), "namespace": os.environ.get("CELERYLAB_NAMESPACE", "")}


@app.task(name="celerylab.smoke.sleep")
def sleep(seconds: float) -> float:
    time.sleep(seconds)
    return seconds


@app.task(name="celerylab.smoke.tick")
def tick() -> float:
    return time.time()


@app.task(name="celerylab.smoke.setting")
def setting(name: str):
    """A setting as the worker's app sees it (what a WorkerSpec's settings became)."""
    return app.conf.get(name)


@app.task(name="celerylab.smoke.env")
def env(name: str) -> str | None:
    return os.environ.get(name)
