"""What a stack runs, declared as data: a StackSpec (app, workers, beats, Flower, services, HTTP apps, database) and its WorkerSpecs."""
from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Mapping


@dataclass
class WorkerSpec:
    """One worker: queues it consumes, pool and concurrency, extra settings and environment."""

    queues: tuple[str, ...] = ()
    concurrency: int = 1
    pool: str = "solo"
    name: str | None = None
    settings: dict = field(default_factory=dict)
    env: dict = field(default_factory=dict)
    loglevel: str = "INFO"
    prefetch_multiplier: int | None = None
    extra_args: tuple = ()
    task_events: bool = True  # `-E`; False: a worker that sends task events only once something (Flower) asks

    def celery_settings(self) -> dict:
        """This worker's own settings (prefetch_multiplier included), over the stack's."""
        extra = {} if self.prefetch_multiplier is None else {"worker_prefetch_multiplier": self.prefetch_multiplier}
        if not self.task_events:
            extra["worker_send_task_events"] = False  # the course's apps turn it on (stack/appconfig.py)
        return {**self.settings, **extra}


@dataclass(frozen=True)
class StackSpec:
    """A stack as data: a lesson declares ``SPEC = StackSpec(...)`` once and starts ``Stack.start(SPEC)``, or a variant
    with ``Stack.start(SPEC, flower=True)`` (``SPEC.replace(flower=True)``). Lists are kept as tuples, dicts read-only.

    app: the module the processes load with ``celery -A`` (it must expose ``app``).
    workers: how many default workers, or the WorkerSpec of each.
    beats: how many Beat processes (two reproduce the doubled schedule); beat_scheduler / beat_max_interval: theirs.
    flower: start Flower too. broker_url / broker_kind: see celerylab.stack.broker.choose.
    settings / env: extra Celery settings and environment for every process.
    pythonpath: extra import paths for the processes (the current folder is always first).
    env values may contain ``{workdir}``, replaced by the stack's private folder.
    timeline: follow the workers' events (celerylab.stack.timeline).
    services: helper processes started before the workers, ``{name: module}``; each module
    prints ``listening on HOST:PORT`` and every process gets ``CELERYLAB_<NAME>_URL``.
    http_apps: ASGI apps served with uvicorn beside the workers, ``{name: "module:attr"}``
    (see Stack.add_http_app); the stack is ready once each answers HTTP.
    client: the module this process imports for ``stack.app`` (default: `app`); a check
    passes the lesson's own module so that learner code runs only in the stack's processes.
    database / schema: an application database (``database=True``, or its schema statements
    as ``database=[...]`` or ``schema=[...]``): see celerylab.stack.database.
    """

    app: str
    workers: int | tuple[WorkerSpec, ...] = 1
    beats: int = 0
    beat_scheduler: str | None = None
    beat_max_interval: int = 1
    flower: bool = False
    broker_url: str | None = None
    broker_kind: str | None = None
    settings: Mapping[str, object] = field(default_factory=dict)
    env: Mapping[str, object] = field(default_factory=dict)
    pythonpath: tuple = ()
    timeline: bool = True
    services: Mapping[str, str] = field(default_factory=dict)
    http_apps: Mapping[str, str] = field(default_factory=dict)
    client: str | None = None
    database: bool | tuple[str, ...] = False
    schema: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        for name in ("settings", "env", "services", "http_apps"):
            object.__setattr__(self, name, MappingProxyType(dict(getattr(self, name) or {})))
        for name in ("pythonpath", "schema"):
            object.__setattr__(self, name, tuple(getattr(self, name)))
        if not isinstance(self.workers, int):
            object.__setattr__(self, "workers", tuple(self.workers))
        if isinstance(self.database, list):
            object.__setattr__(self, "database", tuple(self.database))

    def replace(self, **changes) -> "StackSpec":
        """This spec with `changes` (any of its fields)."""
        return dataclasses.replace(self, **changes) if changes else self

    def worker_specs(self) -> list[WorkerSpec]:
        """One WorkerSpec per worker to start (``workers=2``: two default ones)."""
        return [WorkerSpec() for _ in range(self.workers)] if isinstance(self.workers, int) else list(self.workers)

    def schema_statements(self) -> list[str]:
        """The application database's schema: ``database=[...]`` or ``schema=[...]``."""
        return list(self.database) if isinstance(self.database, tuple) else list(self.schema)

    def wants_database(self) -> bool:
        return bool(self.database) or bool(self.schema)
