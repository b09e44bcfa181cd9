"""The live stack: a broker, real worker/beat/flower processes and an event timeline, held as one value."""
from __future__ import annotations

import atexit
import importlib
import json
import os
import shutil
import sys
import tempfile
import uuid
import weakref
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from celery import Celery

from celerylab.i18n import t
from celerylab.stack import appconfig, broker as brokers, guard
from celerylab.stack.errors import StackError
from celerylab.stack.ports import free_port
from celerylab.stack.process import ManagedProcess
from celerylab.stack.roles import (BEAT_READY, FLOWER_READY, WORKER_READY, WorkerSpec, beat_argv,
                                   flower_argv, wait_http_ok, worker_argv)
from celerylab.stack.timeline import Timeline

SETTINGS_ENV = appconfig.SETTINGS_ENV
_open_stacks: "weakref.WeakSet[Stack]" = weakref.WeakSet()
CLOSE_GRACE = 0.5  # seconds a process gets after SIGTERM when the stack closes


class Stack:
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
    """

    def __init__(self, app: str, *, workers: int | list[WorkerSpec] = 1, beats: int = 0,
                 beat_scheduler: str | None = None, beat_max_interval: int = 1,
                 flower: bool = False, broker_url: str | None = None, broker_kind: str | None = None,
                 settings: dict | None = None, env: dict | None = None, pythonpath: tuple = (),
                 timeline: bool = True, services: dict[str, str] | None = None,
                 client: str | None = None):
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
        self.id = uuid.uuid4().hex[:8]
        self.namespace = f"celerylab:{self.id}:"
        self.workdir = Path(tempfile.mkdtemp(prefix=f"celerylab-{self.id}-"))
        guard.watch_folder(str(self.workdir))
        self.broker: brokers.Broker | None = None
        self.workers: list[ManagedProcess] = []
        self.beats: list[ManagedProcess] = []
        self.flower: ManagedProcess | None = None
        self.flower_url: str | None = None
        self.services: dict[str, ManagedProcess] = {}
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
        self.app = self._client_app()
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

    def _client_app(self) -> Celery:
        """This stack's own client app: the module app's settings, bound to this broker only.

        The module's app (what ``tasks.some_task.delay()`` uses in a notebook) is rebound
        to the most recently started stack; ``stack.app`` always talks to this one.
        """
        os.environ[appconfig.BROKER_ENV] = self.broker.url
        os.environ[appconfig.NAMESPACE_ENV] = self.namespace
        for path in reversed(self.pythonpath):
            if path not in sys.path:
                sys.path.insert(0, path)
        try:
            module = importlib.import_module(self.client_module)
        except ImportError as error:
            raise StackError("stack.no_module", module=self.client_module, error=error) from error
        except Exception as error:
            raise StackError("stack.module_error", module=self.client_module, error=error) from error
        module_app = getattr(module, "app", None) or getattr(module, "celery", None)
        if not isinstance(module_app, Celery):
            raise StackError("stack.no_app", module=self.client_module)
        appconfig.rebind_all(self.broker.url, self.namespace)
        appconfig.rebind(module_app, self.broker.url, self.namespace)
        module_app.conf.update(self.settings)
        client = Celery(module_app.main, set_as_current=False)
        client.conf.update(module_app.conf.table(with_defaults=False))
        client.conf.update(appconfig.stack_settings(self.broker.url, self.namespace))
        client.conf.update(self.settings)
        self.module_app = module_app
        return client

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

    def _spawn(self, name: str, argv: list[str], ready: str, env: dict | None = None,
               timeout: float = 30.0) -> ManagedProcess:
        process = ManagedProcess(name, argv, env=self.process_env(env), cwd=self.workdir,
                                 log_path=self.workdir / f"{name}.log", ready_pattern=ready,
                                 ready_timeout=timeout)
        try:
            return process.start()
        except BaseException:
            process.stop(timeout=1)
            raise

    def add_worker(self, spec: WorkerSpec | None = None, **fields) -> ManagedProcess:
        """Start one more worker (a WorkerSpec, or its fields as keywords) and wait until it is ready."""
        spec = spec or WorkerSpec(**fields)
        index = len(self.workers) + 1
        nodename = spec.name or f"w{index}-{self.id}@%h"
        env = dict(spec.env)
        if spec.settings:
            env[SETTINGS_ENV] = json.dumps({**self.settings, **spec.settings})
        argv = worker_argv(self.app_module, spec, nodename)
        process = self._spawn(f"worker{index}", argv, WORKER_READY, env)
        self.workers.append(process)
        return process

    def add_beat(self, scheduler: str | None = None) -> ManagedProcess:
        index = len(self.beats) + 1
        argv = beat_argv(self.app_module, str(self.workdir / f"beat{index}-schedule"),
                         scheduler or self.beat_scheduler, self.beat_max_interval)
        process = self._spawn(f"beat{index}", argv, BEAT_READY)
        self.beats.append(process)
        return process

    def start_flower(self) -> ManagedProcess:
        port = free_port()
        argv = flower_argv(self.app_module, port, str(self.workdir / "flower.db"))
        self.flower = self._spawn("flower", argv, FLOWER_READY)
        self.flower_url = f"http://127.0.0.1:{port}"
        wait_http_ok(f"{self.flower_url}/healthcheck")
        return self.flower

    def add_service(self, name: str, module: str, *args: str, env: dict | None = None) -> ManagedProcess:
        """Start a helper process (``python -m module``) that prints ``listening on HOST:PORT``."""
        argv = [sys.executable, "-m", module, *args]
        process = self._spawn(name, argv, r"listening on [\d.]+:\d+", env)
        self.services[name] = process
        self.extra_env[f"CELERYLAB_{name.upper()}_URL"] = self.service_url(name)
        return process

    def service_url(self, name: str) -> str:
        match = self.services[name].wait_for_log(r"listening on ([\d.]+:\d+)", 1, since=0)
        return f"http://{match.group(1)}"

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
        if self.broker is not None:
            self.broker.close()
        for cleanup in reversed(self.cleanups):
            try:
                cleanup()
            except Exception:
                pass
        if self.app is not None:
            self.app.close()
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

    def processes(self) -> list[ManagedProcess]:
        extra = [self.broker.process] if self.broker and self.broker.process else []
        return [*extra, *self.workers, *self.beats, *([self.flower] if self.flower else []),
                *self.services.values()]

    def describe(self) -> str:
        """One line saying which broker this stack got, in the current language."""
        kind = self.broker.kind if self.broker else "-"
        return t(f"stack.broker.{kind}", url=self.broker.url if self.broker else "-")

    def __repr__(self) -> str:
        return (f"<Stack {self.id} broker={self.broker.kind if self.broker else None} "
                f"workers={len(self.workers)} beats={len(self.beats)} flower={bool(self.flower)}>")


@atexit.register
def _close_open_stacks() -> None:
    for stack in list(_open_stacks):
        stack.close()
