"""The live stack: a broker, real worker/beat/flower processes and an event timeline, held as one value."""
from __future__ import annotations

import atexit
import gc
import json
import os
import shutil
import tempfile
import uuid
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from celery import Celery

from celerylab import appdb
from celerylab.i18n import t
from celerylab.stack import appconfig, broker as brokers, client, guard
from celerylab.stack.client import client_app
from celerylab.stack.database import StackDatabase
from celerylab.stack.errors import StackError
from celerylab.stack.launch import NodeLauncher
from celerylab.stack.nodes import BeatNode, FlowerNode, Node, ServiceNode
from celerylab.stack.celery_commands import WorkerSpec
from celerylab.stack.timeline import Timeline
from celerylab.stack.worker_node import WorkerNode

SETTINGS_ENV = appconfig.SETTINGS_ENV
_open_stacks: "weakref.WeakSet[Stack]" = weakref.WeakSet()
CLOSE_GRACE = 0.5  # seconds a process gets after SIGTERM when the stack closes


class Stack(NodeLauncher):
    """A running Celery deployment; use ``with Stack.start(...) as s`` or ``s = Stack.start(...)``.

    app: the module the processes load with ``celery -A`` (it must expose ``app``).
    workers: how many default workers, or a list of WorkerSpec.
    beats: how many Beat processes (two reproduce the doubled schedule).
    flower: start Flower too. broker_url / broker_kind: see celerylab.stack.broker.choose.
    settings / env: extra Celery settings and environment for every process.
    pythonpath: extra import paths for the processes (the current folder is always first).
    env values may contain ``{workdir}``, replaced by the stack's private folder.
    client: the module this process imports for ``stack.app`` (default: `app`); a check
    passes the lesson's own module so that learner code runs only in the stack's processes.
    services: helper processes started before the workers, ``{name: module}``; each module
    prints ``listening on HOST:PORT`` and every process gets ``CELERYLAB_<NAME>_URL``.
    database / schema: an application database (``database=True``, or its schema statements
    as ``database=[...]`` or ``schema=[...]``): see celerylab.stack.database.
    """

    def __init__(self, app: str, *, workers: int | list[WorkerSpec] = 1, beats: int = 0,
                 beat_scheduler: str | None = None, beat_max_interval: int = 1,
                 flower: bool = False, broker_url: str | None = None, broker_kind: str | None = None,
                 settings: dict | None = None, env: dict | None = None, pythonpath: tuple = (),
                 timeline: bool = True, services: dict[str, str] | None = None,
                 client: str | None = None, database: bool | list[str] | tuple = False,
                 schema: list[str] | tuple = ()):
        self.app_module = app
        self.client_module = client or app
        self.worker_specs = [WorkerSpec() for _ in range(workers)] if isinstance(workers, int) else list(workers)
        self.beat_count = beats
        self.beat_scheduler = beat_scheduler
        self.beat_max_interval = beat_max_interval
        self.want_flower = flower
        self.broker_url, self.broker_kind = broker_url, broker_kind
        self.settings = dict(settings or {})
        self.extra_env = {k: str(v) for k, v in (env or {}).items()}
        self.pythonpath = [os.getcwd(), *map(str, pythonpath)]
        self.want_timeline = timeline
        self.service_modules = dict(services or {})
        self.schema = list(database) if isinstance(database, (list, tuple)) else list(schema)
        self.want_database = bool(database) or bool(self.schema)
        self.database: StackDatabase | None = None
        self.id = uuid.uuid4().hex[:8]
        self.namespace = f"celerylab:{self.id}:"
        self.workdir = Path(tempfile.mkdtemp(prefix=f"celerylab-{self.id}-"))
        guard.watch_folder(str(self.workdir))
        self.broker: brokers.Broker | None = None
        self.workers: list[WorkerNode] = []
        self.beats: list[BeatNode] = []
        self.flower: FlowerNode | None = None
        self.flower_url: str | None = None
        self.services: dict[str, ServiceNode] = {}
        self.timeline: Timeline | None = None
        self.app: Celery | None = None
        self.closed = False
        self.cleanups: list = []

    # -- start ---------------------------------------------------------------
    @classmethod
    def start(cls, app: str, **options) -> "Stack":
        """Start a stack; on any failure (or an interrupt) everything started so far is stopped."""
        stack = cls(app, **options)
        try:
            stack._start()
        except BaseException:
            stack.close()
            raise
        return stack

    def _start(self) -> None:
        _open_stacks.add(self)
        self.broker = brokers.choose(self.workdir, self.broker_url, self.broker_kind)
        if self.want_database:
            self.database = StackDatabase.create(self.id, self.workdir, self.schema)
            self.cleanups.append(self.database.drop)
            self.extra_env[appdb.DATABASE_URL_ENV] = self.database.url
        self.app, self.module_app = client_app(self.client_module, self.broker.url, self.namespace,
                                               self.settings, self.pythonpath, owner=self.id)
        if self.service_modules:
            with ThreadPoolExecutor(max_workers=len(self.service_modules)) as pool:
                for future in [pool.submit(self.add_service, name, module)
                               for name, module in self.service_modules.items()]:
                    future.result()
        jobs = [lambda spec=spec: self.add_worker(spec) for spec in self.worker_specs]
        jobs += [self.add_beat for _ in range(self.beat_count)]
        if self.want_flower:
            jobs.append(self.start_flower)
        if self.want_timeline:
            jobs.append(self._start_timeline)
        with ThreadPoolExecutor(max_workers=max(1, len(jobs))) as pool:
            for future in [pool.submit(job) for job in jobs]:
                future.result()

    def _start_timeline(self) -> None:
        self.timeline = Timeline(self.app).start()

    def process_env(self, extra: dict | None = None) -> dict[str, str]:
        env = dict(os.environ)
        env.update({
            appconfig.BROKER_ENV: self.broker.url,
            appconfig.NAMESPACE_ENV: self.namespace,
            SETTINGS_ENV: json.dumps(self.settings),
            "PYTHONPATH": os.pathsep.join([*self.pythonpath, env.get("PYTHONPATH", "")]).rstrip(os.pathsep),
            "PYTHONUNBUFFERED": "1",
        })
        env.update(self.extra_env)
        env.update({k: str(v) for k, v in (extra or {}).items()})
        return {k: v.replace("{workdir}", str(self.workdir)) for k, v in env.items()}

    # -- stop ----------------------------------------------------------------
    def close(self) -> None:
        """Stop every process this stack started (workers first, the broker last)."""
        if self.closed:
            return
        self.closed = True
        if self.timeline is not None:
            self.timeline.stop()
        processes = [*self.beats, *self.workers, *([self.flower] if self.flower else []),
                     *self.services.values()]
        if processes:
            with ThreadPoolExecutor(max_workers=len(processes)) as pool:
                list(pool.map(lambda p: p.stop(timeout=CLOSE_GRACE), processes))
        # Reclaim the AsyncResults of this stack while its Redis still answers: on Celery 5.5 and 5.6 a result
        # collected after the broker stops retries its backend unsubscribe for ~19 s (5.7 skips it).
        gc.collect()
        if self.broker is not None:
            self.broker.close()
        for cleanup in reversed(self.cleanups):
            try:
                cleanup()
            except Exception:
                pass
        if self.app is not None:
            self.app.close()
        if self.broker is not None:
            appconfig.forget_pools(self.broker.url, self.namespace)
        client.release(self.id)
        _open_stacks.discard(self)
        shutil.rmtree(self.workdir, ignore_errors=True)
        guard.forget_folder(str(self.workdir))

    def __enter__(self) -> "Stack":
        if self.broker is None:
            try:
                self._start()
            except BaseException:
                self.close()
                raise
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    @property
    def database_url(self) -> str | None:
        return self.database.url if self.database else None

    def db(self):
        """A new connection to this stack's application database (see celerylab.appdb)."""
        if self.database is None:
            raise StackError("stack.no_database")
        return self.database.connect()

    def processes(self) -> list[Node]:
        extra = [self.broker.process] if self.broker and self.broker.process else []
        return [*extra, *self.workers, *self.beats, *([self.flower] if self.flower else []),
                *self.services.values()]

    def describe(self) -> str:
        """One line saying which broker this stack got and its version, in the current language."""
        if self.broker is None:
            return t("stack.broker.-")
        broker = self.broker
        server = t("stack.broker.no_info") if broker.server == "?" else broker.label
        return t(f"stack.broker.{broker.kind}", url=broker.url, server=server, package=broker.package or "-")

    def broker_note(self) -> str:
        """For lessons whose outcome depends on the server: a warning when it is not a real Redis, else ""."""
        return "" if self.broker is None or self.broker.real_redis else t("stack.broker.not_real")

    def __repr__(self) -> str:
        return (f"<Stack {self.id} broker={self.broker.kind if self.broker else None} "
                f"workers={len(self.workers)} beats={len(self.beats)} flower={bool(self.flower)}>")


@atexit.register
def _close_open_stacks() -> None:
    for stack in list(_open_stacks):
        stack.close()
