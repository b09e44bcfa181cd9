"""Adding nodes to a running stack: workers, beats, Flower, helper services and HTTP apps."""
from __future__ import annotations

import json
import secrets
import sys
import threading
from pathlib import Path
from typing import Callable

from celerylab.stack.appconfig import SETTINGS_ENV
from celerylab.stack.celery_commands import BEAT_READY, FLOWER_READY, WORKER_READY, beat_argv, flower_argv, worker_argv
from celerylab.stack.nodes import LISTENING, BeatNode, FlowerNode, Node, ServiceNode, on_free_port
from celerylab.stack.ports import free_port
from celerylab.stack.spec import StackSpec, WorkerSpec
from celerylab.stack.worker_node import WorkerNode

HTTP_READY = r"Uvicorn running on"


class NodeLauncher:
    """The ``add_*`` methods of Stack (a mixin): it starts nodes from the attributes declared here, which Stack sets."""

    spec: StackSpec
    id: str
    workdir: Path
    settings: dict
    extra_env: dict[str, str]
    workers: list[WorkerNode]
    beats: list[BeatNode]
    flower: FlowerNode | None
    flower_url: str | None
    services: dict[str, Node]
    process_env: Callable[..., dict[str, str]]  # every process's environment (Stack.process_env)

    _index_lock = threading.Lock()

    def _next_index(self, kind: str) -> int:
        with self._index_lock:
            counts = self.__dict__.setdefault("_node_counts", {})
            counts[kind] = counts.get(kind, 0) + 1
            return counts[kind]

    def start_node(self, cls: type[Node], name: str, argv: list[str], ready: str | None, env: dict | None = None,
                   timeout: float = 30.0, **attrs) -> Node:
        """Start a `cls` node in the stack's folder, with its environment, and wait until it is ready.

        A node that does not get ready is stopped again before the error propagates.
        """
        node = cls(name, argv, env=self.process_env(env), cwd=self.workdir,
                   log_path=self.workdir / f"{name}.log", ready_pattern=ready, ready_timeout=timeout, **attrs)
        try:
            return node.start()
        except BaseException:
            node.stop(timeout=1)
            raise

    def _settings_env(self, settings: dict) -> dict:
        return {SETTINGS_ENV: json.dumps({**self.settings, **settings})} if settings else {}

    def add_worker(self, spec: WorkerSpec | None = None, **fields) -> WorkerNode:
        """Start one more worker (a WorkerSpec, or its fields as keywords) and wait until it is ready."""
        spec = spec or WorkerSpec(**fields)
        index = self._next_index("worker")
        nodename = spec.name or f"w{index}-{self.id}@%h"
        env = {**spec.env, **self._settings_env(spec.celery_settings())}
        node = self.start_node(WorkerNode, f"worker{index}", worker_argv(self.spec.app, spec, nodename),
                               WORKER_READY, env, spec=spec, nodename=nodename)
        node.index = index
        self.workers.append(node)
        self.workers.sort(key=lambda worker: worker.index)
        return node

    def add_beat(self, scheduler: str | None = None, lock_timeout: float | None = None) -> BeatNode:
        """Start one more Beat: the file scheduler in its own schedule file, or `scheduler`.

        lock_timeout sets ``redbeat_lock_timeout`` for this Beat (RedBeatScheduler's lock).
        """
        index = self._next_index("beat")
        scheduler = scheduler or self.spec.beat_scheduler
        schedule = str(self.workdir / f"beat{index}-schedule")
        env = self._settings_env({} if lock_timeout is None else {"redbeat_lock_timeout": lock_timeout})
        node = self.start_node(BeatNode, f"beat{index}", beat_argv(self.spec.app, schedule, scheduler,
                                                                    self.spec.beat_max_interval),
                               BEAT_READY, env, scheduler=scheduler, schedule_path=schedule)
        node.index = index
        self.beats.append(node)
        self.beats.sort(key=lambda beat: beat.index)
        return node

    def start_flower(self) -> FlowerNode:
        port = free_port()
        url = f"http://127.0.0.1:{port}"
        argv = flower_argv(self.spec.app, port, str(self.workdir / "flower.db"))
        self.flower = self.start_node(FlowerNode, "flower", argv, FLOWER_READY, url=url)
        self.flower_url = url
        return self.flower

    def _publish(self, name: str, node: ServiceNode) -> ServiceNode:
        """List `node` among the services and give the processes started later its URL."""
        self.services[name] = node
        self.extra_env[f"CELERYLAB_{name.upper()}_URL"] = node.url
        return node

    def add_service(self, name: str, module: str, *args: str, env: dict | None = None) -> ServiceNode:
        """Start a helper process (``python -m module``) that prints ``listening on HOST:PORT``.

        A course fake (``celerylab.fakes.*``) is claimed as soon as it listens, with a token only this
        process holds: the tasks reach its service routes, never its control routes (faults, reset, outbox).
        """
        argv = [sys.executable, "-m", module, *args]
        token = secrets.token_urlsafe(24) if module.startswith("celerylab.fakes.") else None
        return self._publish(name, self.start_node(ServiceNode, name, argv, LISTENING, env, control_token=token))

    def _serve(self, name: str, target: str, env: dict | None = None) -> ServiceNode:
        """uvicorn serving `target` on a free port, listed among the services once it answers (not yet published)."""
        def on(port: int) -> ServiceNode:
            argv = [sys.executable, "-m", "uvicorn", target, "--host", "127.0.0.1", "--port", str(port),
                    "--log-level", "info"]
            return self.start_node(ServiceNode, name, argv, HTTP_READY, env, url=f"http://127.0.0.1:{port}")

        node = self.services[name] = on_free_port(on)
        return node

    def add_http_app(self, name: str, target: str, *, env: dict | None = None) -> ServiceNode:
        """Serve an ASGI app (``"module:attr"``, e.g. a FastAPI producer) with uvicorn on a free port.

        Ready when it answers HTTP; later processes get ``CELERYLAB_<NAME>_URL``.
        """
        return self._publish(name, self._serve(name, target, env))

    def service_url(self, name: str) -> str:
        return self.services[name].url
