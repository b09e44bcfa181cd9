"""The production-shaped Celery app that docker-compose runs: three queues, routed demo tasks, one Beat entry."""
from __future__ import annotations

import os
import socket
import time

from kombu import Exchange, Queue

from celerylab.deploy.canary import register_canary
from celerylab.stack.appconfig import create_app

# Queue names are the English for the notes' padrao / prioritaria / pesada, the
# language every identifier in this project uses. Each worker service consumes
# one of them, sized for the work it gets (concurrency in docker-compose.yml):
#   default  - everything not routed elsewhere; 4 processes
#   priority - short, latency-sensitive work (a welcome e-mail); 8 processes,
#              mostly waiting on I/O, so they never queue behind a report
#   heavy    - long CPU-bound work (reports, bulk sends); 2 processes, so a
#              burst of reports cannot starve the machine
QUEUES = ("default", "priority", "heavy")
HEARTBEAT_ENV = "CELERYLAB_HEARTBEAT_SECONDS"

app = create_app(
    "celerylab-deploy",
    task_default_queue="default",
    task_queues=[Queue(name, Exchange(name), routing_key=name) for name in QUEUES],
    task_routes={
        "celerylab.deploy.send_welcome": {"queue": "priority"},
        "celerylab.deploy.build_report": {"queue": "heavy"},
    },
    task_serializer="json",
    result_serializer="json",
    accept_content=["json"],
    task_acks_late=True,
    worker_prefetch_multiplier=1,
    task_track_started=True,
    result_expires=3600,
    timezone="America/Sao_Paulo",
    enable_utc=True,
    beat_schedule={
        # Proof of life: Beat publishes it, the default worker runs it, Flower shows both.
        "heartbeat": {
            "task": "celerylab.deploy.heartbeat",
            "schedule": float(os.environ.get(HEARTBEAT_ENV, "60")),
        },
    },
)


def _where() -> dict:
    return {"host": socket.gethostname(), "pid": os.getpid()}


@app.task(name="celerylab.deploy.heartbeat")
def heartbeat() -> dict:
    return {"at": time.time(), **_where()}


canary = register_canary(app)  # the health check's task (celerylab.deploy.canary): proves a worker consumes its queue


@app.task(name="celerylab.deploy.send_welcome", bind=True)
def send_welcome(self, user_id: int) -> dict:
    return {"user_id": user_id, "queue": self.request.delivery_info.get("routing_key"), **_where()}


@app.task(name="celerylab.deploy.build_report", bind=True, time_limit=300, soft_time_limit=240)
def build_report(self, rows: int) -> dict:
    total = sum(range(rows))
    return {"rows": rows, "total": total, "queue": self.request.delivery_info.get("routing_key"), **_where()}


@app.task(name="celerylab.deploy.add", bind=True)
def add(self, x: int, y: int) -> dict:
    return {"sum": x + y, "queue": self.request.delivery_info.get("routing_key"), **_where()}
