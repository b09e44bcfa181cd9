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
from celerylab.stack import appconfig, client, guard
from celerylab.stack import broker as brokers
from celerylab.stack.client import client_app
from celerylab.stack.database import StackDatabase
from celerylab.stack.errors import StackError
from celerylab.stack.launch import NodeLauncher
from celerylab.stack.nodes import BeatNode, FlowerNode, Node
from celerylab.stack.spec import StackSpec
from celerylab.stack.timeline import Timeline
from celerylab.stack.worker_node import WorkerNode

SETTINGS_ENV = appconfig.SETTINGS_ENV
_open_stacks: "weakref.WeakSet[Stack]" = weakref.WeakSet()
CLOSE_GRACE = 0.5  # seconds a process gets after SIGTERM when the stack closes


class Stack(NodeLauncher):
    """A running Celery deployment; use ``with Stack.start(...) as s`` or ``s = Stack.start(...)``.

    ``Stack.start(spec)`` takes a StackSpec (celerylab.stack.spec, which says what each field does), with
    keyword changes to it (``Stack.start(SPEC, flower=True)``), or the app module and the spec's fields as
    keywords (``Stack.start("lesson.tasks", workers=2)``).
    """

    def __init__(self, app: str | StackSpec, **options):
        self.spec = spec = app.replace(**options) if isinstance(app, StackSpec) else StackSpec(app, **options)
        self.settings = dict(spec.settings)
        self.extra_env = {k: str(v) for k, v in spec.env.items()}
        self.pythonpath = [os.getcwd(), *map(str, spec.pythonpath)]
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
        self.services: dict[str, Node] = {}
        self.timeline: Timeline | None = None
        self.app: Celery | None = None
        self.closed = False
        self.cleanups: list = []

    # -- start ---------------------------------------------------------------
    @classmethod
    def start(cls, app: str | StackSpec, **options) -> "Stack":
        """Start a stack; on any failure (or an interrupt) everything started so far is stopped."""
        stack = cls(app, **options)
        try:
            stack._start()
        except BaseException:
            stack.close()
            raise
        return stack

    def _start(self) -> None:
        """The broker and database, the helper services, then at once the workers, beats, Flower, HTTP apps, timeline."""
        _open_stacks.add(self)
        spec = self.spec
        self.broker = brokers.choose(self.workdir, spec.broker_url, spec.broker_kind)
        if spec.wants_database():
            self.database = StackDatabase.create(self.id, self.workdir, spec.schema_statements())
            self.cleanups.append(self.database.drop)
            self.extra_env[appdb.DATABASE_URL_ENV] = self.database.url
        self.app, self.module_app = client_app(spec.client or spec.app, self.broker.url, self.namespace,
                                               self.settings, self.pythonpath, owner=self.id)
        if spec.services:
            with ThreadPoolExecutor(max_workers=len(spec.services)) as pool:
                for future in [pool.submit(self.add_service, name, module) for name, module in spec.services.items()]:
                    future.result()
        jobs = [lambda worker=worker: self.add_worker(worker) for worker in spec.worker_specs()]
        jobs += [self.add_beat for _ in range(spec.beats)]
        if spec.flower:
            jobs.append(self.start_flower)
        jobs += [lambda name=name, target=target: self._serve(name, target) for name, target in spec.http_apps.items()]
        if spec.timeline:
            jobs.append(self._start_timeline)
        with ThreadPoolExecutor(max_workers=max(1, len(jobs))) as pool:
            for future in [pool.submit(job) for job in jobs]:
                future.result()
        for name in spec.http_apps:  # their URLs, for the processes started from now on (as add_http_app)
            self._publish(name, self.services[name])

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
