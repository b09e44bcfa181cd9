"""When the broker got each long task's acknowledgement: the Redis hashes (kombu's `unacked`) sampled while they run."""
from __future__ import annotations

import threading
import time

import redis

STEP = 0.1  # seconds between two samples of the broker's hashes
MARGIN = 0.3  # seconds after a task's start (and before its end) when an early ack is long done


class UnackedSampler:
    """From its own connection to the broker, which task ids sit in a Redis hash (a message delivered and not yet
    acknowledged: kombu's `unacked`, whatever key the answer names it), sampled every STEP seconds in a thread."""

    def __init__(self, url: str, task_ids: list[str]) -> None:
        self.client = redis.Redis.from_url(url)
        self.task_ids = list(task_ids)
        self.samples: list[tuple[float, set[str]]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def __enter__(self) -> "UnackedSampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
        self.client.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.samples.append((time.time(), self.sample()))
            except redis.RedisError:
                pass
            self._stop.wait(STEP)

    def sample(self) -> set[str]:
        held = [value if isinstance(value, bytes) else str(value).encode()
                for key in self.client.scan_iter(count=500) if self.client.type(key) == b"hash"
                for value in self.client.hvals(key)]
        return {task_id for task_id in self.task_ids if any(task_id.encode() in value for value in held)}

    def held_while_running(self, task_id: str, started: float, seconds: float) -> bool:
        """Whether the message of a task that started at `started` and ran `seconds` was still unacknowledged well
        inside its run (an early ack leaves the hash as soon as the task starts)."""
        return any(task_id in held for at, held in self.samples
                   if started + MARGIN < at < started + seconds - MARGIN)
