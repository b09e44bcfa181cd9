"""Typed stack nodes on top of ManagedProcess: kill, terminate, restart, readiness; Beat, HTTP servers (Flower), services."""
from __future__ import annotations

import re
import signal
import subprocess
import urllib.error
import urllib.request
from typing import Callable, TypeVar

from celerylab.polling import until
from celerylab.stack.errors import StackError
from celerylab.stack.ports import free_port
from celerylab.stack.process import ManagedProcess

PORT_TRIES = 3  # free ports tried when another process takes the one chosen before the server binds it
N = TypeVar("N", bound="Node")


def wait_http(url: str, timeout: float = 10.0, *, any_status: bool = False, node: "Node | None" = None) -> None:
    """Poll `url` until it answers 200 (or, with any_status, any HTTP status at all).

    With `node` (the server's process), its exit ends the wait at once, with its log's tail.
    """
    last: Exception | None = None

    def answers() -> bool:
        nonlocal last
        if node is not None:
            node.ensure_running()
        try:
            with urllib.request.urlopen(url, timeout=1) as response:
                if response.status == 200 or any_status:
                    return True
        except urllib.error.HTTPError as error:
            if any_status:
                return True
            last = error
        except OSError as error:
            last = error
        return False

    if not until(answers, timeout, step=0.05):
        raise StackError("stack.http_timeout", url=url, error=last)


class Node(ManagedProcess):
    """One process of a stack: ``kill()``, ``terminate()``, ``restart()``, ``wait_ready()``, ``wait_for_log()``."""

    def start(self) -> "Node":
        super().start()
        self.ready_check(self.ready_timeout)
        return self

    def ready_check(self, timeout: float) -> None:
        """More than a log line, for nodes that serve something (overridden)."""

    def wait_ready(self, timeout: float | None = None) -> "Node":
        """Block until this start of the node showed its ready line (and answers, for servers)."""
        timeout = self.ready_timeout if timeout is None else timeout
        if self.ready_pattern:
            self.wait_for_log(self.ready_pattern, timeout, since=self._start_line, error_key="stack.not_ready")
        self.ready_check(timeout)
        return self

    def ensure_running(self) -> None:
        """Raise StackError("stack.died"), with the log's last lines, once the main process has exited."""
        if not self.alive:
            if self._reader is not None:
                self._reader.join(1)  # the lines it wrote before exiting: often the reason
            raise StackError("stack.died", self.tail(), name=self.name, code=self.returncode)

    def send_signal(self, sig: int) -> None:
        """Send `sig` to the main process and return at once."""
        super().kill(sig)

    def wait_exit(self, timeout: float = 10.0) -> int | None:
        """Block until the main process is gone; its exit code (negative: the signal that ended it)."""
        if self._popen is None:
            return None
        try:
            return self._popen.wait(timeout)
        except subprocess.TimeoutExpired:
            raise StackError("stack.still_running", self.tail(), name=self.name, timeout=timeout) from None

    def kill(self, sig: int = signal.SIGKILL, *, group: bool = False, timeout: float = 10.0) -> int | None:
        """Send `sig` (a signal that ends the process) and return once the process is gone."""
        super().kill(sig, group=group)
        return self.wait_exit(timeout)

    def terminate(self, timeout: float = 10.0) -> int | None:
        """The graceful path: SIGTERM, then wait up to `timeout` for the process to exit."""
        return self.kill(signal.SIGTERM, timeout=timeout)

    def restart(self) -> "Node":
        """Stop (the whole process group) and start again; returns when ready."""
        super().restart()
        return self


class BeatNode(Node):
    """A ``celery beat`` process with its scheduler and schedule file."""

    def __init__(self, *args, scheduler: str | None = None, schedule_path: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self.scheduler = scheduler
        self.schedule_path = schedule_path


class HttpNode(Node):
    """A server that is ready when an HTTP path (``ready_path``) answers 200; ``url`` is its address."""

    ready_path = "/"

    def __init__(self, *args, url: str, ready_path: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.url = url
        if ready_path is not None:
            self.ready_path = ready_path

    def ready_check(self, timeout: float) -> None:
        wait_http(f"{self.url}{self.ready_path}", timeout, node=self)


class FlowerNode(HttpNode):
    """Flower, ready when its /healthcheck answers OK."""

    ready_path = "/healthcheck"


LISTENING = r"listening on ([\d.]+:\d+)"


class ServiceNode(Node):
    """A helper server (a fake, an HTTP app); ``url`` is where it answers."""

    def __init__(self, *args, url: str | None = None, control_token: str | None = None, **kwargs):
        super().__init__(*args, service=control_token is not None, **kwargs)
        self._url = url
        self.control_token = control_token  # a fake's: claimed at each start, before any worker runs

    @property
    def url(self) -> str:
        if self._url is None:
            return f"http://{self.wait_for_log(LISTENING, 1, since=0).group(1)}"
        return self._url

    def ready_check(self, timeout: float) -> None:
        if self._url is not None:
            wait_http(self._url, timeout, any_status=True)
        if self.control_token:
            from celerylab.fakes.control import AlreadyClaimed, claim

            try:
                claim(self.url, self.control_token)
            except AlreadyClaimed:
                raise StackError("stack.fake_claimed", name=self.name, url=self.url) from None


def address_in_use(error: StackError) -> bool:
    return bool(re.search(r"(?i)address already in use|errno 98", error.log_tail))


def on_free_port(start: Callable[[int], N], tries: int = PORT_TRIES) -> N:
    """``start(port)`` on a free port; on another one when a process took that port first (up to `tries`)."""
    last: StackError | None = None
    for _ in range(tries):
        try:
            return start(free_port())
        except StackError as error:
            if not address_in_use(error):
                raise
            last = error
    raise last  # type: ignore[misc]

