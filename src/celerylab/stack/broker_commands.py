"""The commands a Redis-protocol broker runs, as its MONITOR shows them, recorded by a thread of the caller's process."""
from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable

import redis

MARK = "celerylab-mark-"


class BrokerCommands:
    """From ``__enter__`` to ``__exit__``, hands `seen` every command the server at `url` runs: its text as MONITOR
    prints it (``HSET key field value``) and the server's time of it (seconds). Nothing a worker or a task does can
    hide a command from it. `supported` is False where the server has no MONITOR (embedded fakeredis): nothing is
    seen there, and the caller reads the broker's state another way."""

    def __init__(self, url: str, seen: Callable[[str, float], None]) -> None:
        self.url, self.seen = url, seen
        self.supported: bool | None = None  # known once entered
        self.marks: set[str] = set()
        self.ready, self.stopping = threading.Event(), threading.Event()
        self.thread = threading.Thread(target=self._watch, name="broker-commands", daemon=True)

    def __enter__(self) -> BrokerCommands:
        self.thread.start()
        self.ready.wait(10)
        return self

    def __exit__(self, *exc) -> None:
        self.stopping.set()
        self.thread.join(5)

    def _watch(self) -> None:
        client = redis.Redis.from_url(self.url)
        try:
            with client.monitor() as monitor:
                self.supported = True
                self.ready.set()
                while not self.stopping.is_set():
                    if not monitor.connection.can_read(timeout=0.1):
                        continue
                    command = monitor.next_command()
                    text = str(command.get("command", ""))
                    if text.startswith(f"EXISTS {MARK}"):
                        self.marks.add(text.split()[1])
                    else:
                        self.seen(text, float(command["time"]))
        except redis.ResponseError:
            self.supported = False
        except (redis.RedisError, OSError, ValueError):  # the server went away while watched
            pass
        finally:
            if self.supported is None:
                self.supported = False
            self.ready.set()
            client.close()

    def caught_up(self, timeout: float = 5.0) -> bool:
        """Wait until MONITOR has shown a command sent now, so every command the server ran before it was seen."""
        if not self.supported:
            return False
        mark = f"{MARK}{uuid.uuid4().hex}"
        client = redis.Redis.from_url(self.url)
        try:
            client.exists(mark)
        finally:
            client.close()
        deadline = time.monotonic() + timeout
        while mark not in self.marks and time.monotonic() < deadline:
            time.sleep(0.02)
        return mark in self.marks
