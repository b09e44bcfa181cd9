"""Celery events captured into a timeline: received, started, retried, succeeded, failed, with times."""
from __future__ import annotations

import threading
import time
import uuid
from dataclasses import dataclass, field

from celery import Celery

from celerylab.polling import until

TASK_EVENTS = ("task-sent", "task-received", "task-started", "task-retried",
               "task-succeeded", "task-failed", "task-rejected", "task-revoked")
SYNC_EVENT = "celerylab-sync"
RESUBSCRIBE_PAUSE = 0.2  # seconds between attempts to subscribe again after the broker went away


@dataclass
class Event:
    type: str
    uuid: str | None
    name: str | None
    hostname: str | None
    timestamp: float
    fields: dict = field(repr=False, default_factory=dict)


class Timeline:
    """A thread that receives this stack's Celery events; query with events(), wait_for(), plot()."""

    def __init__(self, app: Celery):
        self.app = app
        self._events: list[Event] = []
        self._names: dict[str, str] = {}
        self._cond = threading.Condition()
        self._receiver = None
        self._thread: threading.Thread | None = None
        self._error: BaseException | None = None
        self._stopped = threading.Event()

    def start(self, timeout: float = 10.0) -> "Timeline":
        self._thread = threading.Thread(target=self._run, daemon=True, name="celerylab-events")
        self._thread.start()
        self._sync(timeout)
        return self

    def _run(self) -> None:
        """Receive events; when the broker goes away (a restart), subscribe again until stopped."""
        while not self._stopped.is_set():
            try:
                with self.app.connection_for_read() as connection:
                    self._receiver = self.app.events.Receiver(connection, handlers={"*": self._on_event})
                    self._receiver.capture(limit=None, timeout=None, wakeup=False)
            except Exception as error:  # reported by the next query if it lasts
                self._error = error
            finally:
                with self._cond:
                    self._cond.notify_all()
            if self._receiver is not None and self._receiver.should_stop:
                break
            self._stopped.wait(RESUBSCRIBE_PAUSE)

    def _dispatch(self, kind: str, **fields) -> None:
        with self.app.connection_for_write() as connection:
            self.app.events.Dispatcher(connection).send(kind, **fields)

    def sync(self, timeout: float = 10.0) -> None:
        """Block until the event subscription is live (after a broker restart, say)."""
        self._sync(timeout)

    def _sync(self, timeout: float) -> None:
        """Publish marker events until one comes back: the subscription is live."""
        token = uuid.uuid4().hex

        def not_ready() -> TimeoutError:
            return TimeoutError(f"event stream not ready after {timeout}s: {self._error!r}")

        def came_back() -> bool:
            if self._thread is None or not self._thread.is_alive():
                raise not_ready()  # the receiving thread is gone: no marker will ever come back
            self._dispatch(SYNC_EVENT, token=token)
            with self._cond:  # the wait for the marker is the pause between two tries
                return self._cond.wait_for(lambda: self._seen_token(token), timeout=0.2)

        if not until(came_back, timeout, step=0):
            raise not_ready()

    def _seen_token(self, token: str) -> bool:
        return any(e.type == SYNC_EVENT and e.fields.get("token") == token for e in self._events)

    def _on_event(self, raw: dict) -> None:
        kind = raw.get("type", "")
        task_id = raw.get("uuid")
        if raw.get("name") and task_id:
            self._names[task_id] = raw["name"]
        event = Event(kind, task_id, raw.get("name") or self._names.get(task_id),
                      raw.get("hostname"), float(raw.get("timestamp") or time.time()), raw)
        with self._cond:
            self._events.append(event)
            self._cond.notify_all()

    def stop(self) -> None:
        self._stopped.set()
        if self._receiver is not None:
            self._receiver.should_stop = True
            try:
                self._dispatch(SYNC_EVENT, token="stop")
            except Exception:
                pass
        if self._thread is not None:
            self._thread.join(3)

    # -- queries ---------------------------------------------------------------
    def events(self, task_id: str | None = None, types: tuple[str, ...] = TASK_EVENTS,
               name: str | None = None) -> list[Event]:
        with self._cond:
            return [e for e in self._events if e.type in types
                    and (task_id is None or e.uuid == task_id)
                    and (name is None or e.name == name)]

    def count(self, kind: str, task_id: str | None = None, name: str | None = None) -> int:
        return len(self.events(task_id, (kind,), name))

    def wait_for(self, kind: str, task_id: str | None = None, count: int = 1,
                 timeout: float = 10.0, name: str | None = None) -> list[Event]:
        """Block until `count` events of `kind` (for `task_id`/`name`) were seen; return them."""
        def enough() -> bool:
            return self.count(kind, task_id, name) >= count

        with self._cond:
            if not self._cond.wait_for(enough, timeout=timeout):
                raise TimeoutError(f"{count} x {kind} not seen in {timeout}s "
                                   f"(seen {self.count(kind, task_id, name)})")
        return self.events(task_id, (kind,), name)

    def wait_for_any(self, kinds: tuple[str, ...], task_id: str | None = None,
                     timeout: float = 10.0) -> Event:
        """Block until one event of any of `kinds` (for `task_id`) was seen; return the first."""
        with self._cond:
            if not self._cond.wait_for(lambda: self.events(task_id, kinds), timeout=timeout):
                raise TimeoutError(f"none of {kinds} seen in {timeout}s")
        return self.events(task_id, kinds)[0]

    def attempts(self, task_id: str) -> list[float]:
        """Start times (seconds since the first) of every attempt of one task."""
        starts = [e.timestamp for e in self.events(task_id, ("task-started",))]
        return [s - starts[0] for s in starts] if starts else []
