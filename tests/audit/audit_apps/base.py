"""A Celery app the audit finds clean; each test app starts from it and adds exactly one defect."""
from __future__ import annotations

from celery import Celery

CLEAN = {
    "broker_url": "redis://localhost:6379/0",
    "result_backend": "redis://localhost:6379/1",
    "task_time_limit": 30,
    "task_soft_time_limit": 25,
    "worker_prefetch_multiplier": 1,
    "timezone": "UTC",
}


def make_app(name: str, drop: tuple = (), app_options: dict | None = None, **settings) -> Celery:
    """A clean app named `name`, without the CLEAN keys in `drop`, with `settings` on top."""
    app = Celery(name, set_as_current=False, **(app_options or {}))
    app.conf.update({key: value for key, value in CLEAN.items() if key not in drop})
    app.conf.update(settings)
    return app
