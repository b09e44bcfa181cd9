"""A Celery worker node: its pool children, killing one, warm and cold shutdown, resident memory."""
from __future__ import annotations

import os
import signal
import socket

import psutil

from celerylab.polling import read_until
from celerylab.stack.errors import StackError
from celerylab.stack.nodes import Node
from celerylab.stack.spec import WorkerSpec

POLL = 0.05  # seconds between looks at the process table while waiting on a condition


class WorkerNode(Node):
    """A ``celery worker`` process started from a WorkerSpec; ``hostname`` is its Celery node name."""

    def __init__(self, *args, spec: WorkerSpec, nodename: str, **kwargs):
        super().__init__(*args, **kwargs)
        self.spec = spec
        self.hostname = nodename.replace("%h", socket.gethostname())

    def command_line(self) -> str:
        """The ``celery ... worker ...`` arguments this node runs with, for a lesson cell to print.

        The node name (``-n``, which carries the stack's random id) is left out.
        """
        args = self.argv[self.argv.index("celery") + 1:] if "celery" in self.argv else list(self.argv)
        shown = []
        skip = False
        for arg in args:
            if skip:
                skip = False
            elif arg == "-n":
                skip = True
            else:
                shown.append(arg)
        return " ".join(["celery", *shown])

    def _children(self) -> list[psutil.Process]:
        if not self.alive:
            return []
        try:
            children = psutil.Process(self.pid).children()
        except psutil.NoSuchProcess:
            return []
        live = []
        for child in children:
            try:
                if child.status() != psutil.STATUS_ZOMBIE:
                    live.append((child.create_time(), child.pid, child))
            except psutil.NoSuchProcess:
                pass
        return [child for _, _, child in sorted(live)]

    def child_pids(self) -> list[int]:
        """The pool's child processes, oldest first ([] for the solo and threads pools)."""
        return [child.pid for child in self._children()]

    def _wait_until(self, condition, timeout: float, key: str, **values) -> None:
        def holds() -> bool:
            if condition():
                return True
            self.ensure_running()
            return False

        if not read_until(holds, timeout=timeout, step=POLL):  # checked once more after the last sleep
            raise StackError(key, self.tail(), name=self.name, timeout=timeout, **values)

    def kill_child(self, index: int = 0, sig: int = signal.SIGKILL, timeout: float = 10.0) -> int:
        """Send `sig` to one pool child and return its pid once it is gone."""
        pids = self.child_pids()
        if not pids:
            raise StackError("stack.no_children", name=self.name, pool=self.spec.pool)
        pid = pids[index]
        os.kill(pid, sig)
        self._wait_until(lambda: pid not in self.child_pids(), timeout, "stack.child_survived", pid=pid)
        return pid

    def wait_pool_ready(self, timeout: float = 10.0) -> list[int]:
        """Block until the pool has its `concurrency` live children again; return their pids."""
        wanted = self.spec.concurrency if self.spec.pool == "prefork" else 0
        self._wait_until(lambda: len(self.child_pids()) == wanted, timeout, "stack.pool_not_ready",
                         wanted=wanted)
        return self.child_pids()

    def shutdown(self, cold: bool = False, timeout: float = 15.0) -> int | None:
        """Warm shutdown (SIGTERM: finish running tasks) or cold (SIGQUIT); returns the exit code."""
        return self.kill(signal.SIGQUIT if cold else signal.SIGTERM, timeout=timeout)

    def rss_total(self) -> int:
        """Resident memory of the main process plus all its children, in bytes."""
        if not self.alive:
            return 0
        try:
            main = psutil.Process(self.pid)
            processes = [main, *main.children(recursive=True)]
        except psutil.NoSuchProcess:
            return 0
        total = 0
        for process in processes:
            try:
                total += process.memory_info().rss
            except psutil.NoSuchProcess:
                pass
        return total
