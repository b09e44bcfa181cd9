"""One managed child process: spawned in its own process group, logs captured, waited on by pattern."""
from __future__ import annotations

import contextlib
import os
import re
import signal
import subprocess
import threading
import time
from pathlib import Path

from celerylab.stack import guard, service_user
from celerylab.stack.errors import StackError

TAIL_LINES = 25


class LogText(str):
    """A process log as text; calling it (``node.logs()``) gives the same text."""

    def __call__(self) -> str:
        return str(self)


class ManagedProcess:
    """A handle on a child process: ``pid``, ``logs``, ``wait_for_log()``, ``kill()``, ``restart()``, ``stop()``."""

    def __init__(self, name: str, argv: list[str], *, env: dict[str, str] | None = None,
                 cwd: str | Path | None = None, log_path: str | Path | None = None,
                 ready_pattern: str | None = None, ready_timeout: float = 20.0, service: bool = False):
        self.name = name
        self.service = service  # a course fake: runs as the service user where there is one (stack.service_user)
        self.argv = list(argv)
        self.env = env
        self.cwd = str(cwd) if cwd else None
        self.log_path = Path(log_path) if log_path else None
        self.ready_pattern = ready_pattern
        self.ready_timeout = ready_timeout
        self.lines: list[str] = []
        self.starts = 0
        self._cond = threading.Condition()
        self._popen: subprocess.Popen | None = None
        self._reader: threading.Thread | None = None
        self._start_line = 0

    # -- lifecycle -----------------------------------------------------------
    def start(self) -> "ManagedProcess":
        try:
            self._popen = subprocess.Popen(
                self.argv, env=self.env, cwd=self.cwd, stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True,
                text=True, encoding="utf-8", errors="replace", bufsize=1,
                **({"preexec_fn": service_user.become} if self.service and service_user.uid() else {}),
            )
        except FileNotFoundError as error:
            raise StackError("stack.not_found", name=self.name, program=self.argv[0]) from error
        guard.watch(self._popen.pid)
        self.starts += 1
        with self._cond:
            self._start_line = len(self.lines)
        self._reader = threading.Thread(target=self._pump, args=(self._popen,), daemon=True,
                                        name=f"celerylab-log-{self.name}")
        self._reader.start()
        if self.ready_pattern:
            self.wait_for_log(self.ready_pattern, self.ready_timeout, since=self._start_line,
                              error_key="stack.not_ready")
        return self

    def _pump(self, popen: subprocess.Popen) -> None:
        log = self.log_path.open("a", encoding="utf-8") if self.log_path else None
        try:
            for line in popen.stdout:
                with self._cond:
                    self.lines.append(line.rstrip("\n"))
                    self._cond.notify_all()
                if log:
                    log.write(line)
                    log.flush()
        finally:
            popen.wait()
            if log:
                log.close()
            with self._cond:
                self._cond.notify_all()

    def stop(self, timeout: float = 5.0) -> int | None:
        """Ask the whole process group to stop (SIGTERM), then SIGKILL it after `timeout`."""
        popen = self._popen
        if popen is None:
            return None
        self._signal_group(signal.SIGTERM)
        try:
            popen.wait(timeout)
        except subprocess.TimeoutExpired:
            pass
        self._signal_group(signal.SIGKILL)
        popen.wait()
        if self._reader:
            self._reader.join(2)
        guard.forget(popen.pid)
        return popen.returncode

    def kill(self, sig: int = signal.SIGKILL, *, group: bool = False) -> None:
        """Send `sig` to the main process (or, with group=True, to its whole process group)."""
        if self._popen is None:
            return
        if group:
            self._signal_group(sig)
        else:
            try:
                with self._as_owner():
                    os.kill(self._popen.pid, sig)
            except ProcessLookupError:
                pass

    def restart(self) -> "ManagedProcess":
        self.stop()
        return self.start()

    def _as_owner(self):
        """The user allowed to signal this process: the service user for a service, else this process's own."""
        return service_user.acting() if self.service else contextlib.nullcontext()

    def _signal_group(self, sig: int) -> None:
        try:
            with self._as_owner():
                os.killpg(self._popen.pid, sig)
        except (ProcessLookupError, PermissionError):
            pass

    # -- observation ---------------------------------------------------------
    @property
    def pid(self) -> int | None:
        return self._popen.pid if self._popen else None

    @property
    def alive(self) -> bool:
        return self._popen is not None and self._popen.poll() is None

    @property
    def returncode(self) -> int | None:
        return self._popen.poll() if self._popen else None

    @property
    def logs(self) -> LogText:
        with self._cond:
            return LogText("\n".join(self.lines))

    def log_offset(self) -> int:
        """The current end of the log: pass it as ``since=`` to wait only for newer lines."""
        with self._cond:
            return len(self.lines)

    def tail(self, n: int = TAIL_LINES) -> str:
        with self._cond:
            return "\n".join(self.lines[-n:])

    def wait_for_log(self, pattern: str, timeout: float = 10.0, *, since: int | None = None,
                     error_key: str = "stack.log_timeout") -> re.Match:
        """Block until a log line (from line `since`, default: this start) matches `pattern`."""
        regex = re.compile(pattern)
        position = self._start_line if since is None else since
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                while position < len(self.lines):
                    match = regex.search(self.lines[position])
                    position += 1
                    if match:
                        return match
                exited = self._popen is None or self._popen.poll() is not None
                if exited and (self._reader is None or not self._reader.is_alive()):
                    raise StackError("stack.exited", self.tail(), name=self.name,
                                     code=self.returncode, pattern=pattern)
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise StackError(error_key, self.tail(), name=self.name,
                                     pattern=pattern, timeout=timeout)
                self._cond.wait(min(remaining, 0.5))

    def __repr__(self) -> str:
        state = "alive" if self.alive else f"exited {self.returncode}"
        return f"<{type(self).__name__} {self.name} pid={self.pid} {state}>"
