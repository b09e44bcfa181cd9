"""The loaded app as the rules read it: user settings, registered tasks, broker and backend, the user's modules."""
from __future__ import annotations

import sys
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import urlsplit

from celerylab.audit import project_settings as known
from celerylab.audit.loader import Loaded, is_user_module
from celerylab.audit.sources import Declared, declared, function_of

# kombu's Redis and SQS transports redeliver unacknowledged messages after this many seconds by default.
DEFAULT_VISIBILITY_TIMEOUT = 3600
VISIBILITY_SCHEMES = {"redis", "rediss", "sentinel", "sqs", "redis+socket"}


def task_module(task) -> str:
    """The name of the module that defines the task's function (a library's, for a task a library registers)."""
    return getattr(function_of(task), "__module__", "") or ""


@dataclass
class AppView:
    loaded: Loaded
    live_registered: set[str] | None = None  # --live: what a real worker registered
    scanned: tuple[str, ...] = ()            # --scan: files read for call sites, never imported
    _declared: dict = field(default_factory=dict, repr=False)

    @property
    def app(self):
        return self.loaded.app

    @property
    def conf(self):
        return self.app.conf

    @cached_property
    def user(self) -> dict[str, object]:
        return known.user_settings(self.app)

    @cached_property
    def tasks(self) -> dict:
        """The tasks a worker of this app registers, minus Celery's built-in ones."""
        return {name: task for name, task in sorted(self.app.tasks.items()) if not name.startswith("celery.")}

    @cached_property
    def user_tasks(self) -> dict:
        """The tasks whose code is the user's own (a library's tasks are not theirs to rename or rewrite)."""

        def own(task) -> bool:
            module = sys.modules.get(task_module(task))
            return module is not None and is_user_module(module)

        return {name: task for name, task in self.tasks.items() if own(task)}

    @cached_property
    def registered(self) -> set[str]:
        return set(self.app.tasks.keys())

    def declared(self, task) -> Declared:
        """The task's decorator as written (read once per audit; no cache outlives the audited app)."""
        if task.name not in self._declared:
            self._declared[task.name] = declared(task)
        return self._declared[task.name]

    # --- broker and backend -------------------------------------------------------------------------
    @cached_property
    def broker_scheme(self) -> str:
        url = self.conf.broker_url or "amqp://"
        url = url.split(";")[0] if isinstance(url, str) else str(url)
        return urlsplit(url).scheme.lower() if "://" in url else url.lower()

    @property
    def has_visibility_timeout(self) -> bool:
        return self.broker_scheme in VISIBILITY_SCHEMES

    @cached_property
    def visibility_timeout(self) -> tuple[float, bool]:
        """(seconds, configured?) for a Redis/SQS broker."""
        options = self.conf.broker_transport_options or {}
        if "visibility_timeout" in options:
            return float(options["visibility_timeout"]), True
        return float(DEFAULT_VISIBILITY_TIMEOUT), False

    @cached_property
    def backend_scheme(self) -> str:
        """"" without a result backend; else the backend's name (redis, db, rpc, ...)."""
        backend = self.conf.result_backend
        if not backend or str(backend).lower() in ("disabled", "none"):
            return ""
        text = str(backend) if isinstance(backend, str) else getattr(backend, "__name__", str(backend))
        return text.split("://")[0].split("+")[0].lower() if "://" in text else text.lower()

    @cached_property
    def backend_class(self):
        """The backend's class, resolved by name without instantiating it (nothing connects)."""
        if not self.backend_scheme:
            return None
        from celery.app.backends import by_url

        try:
            cls, _ = by_url(self.conf.result_backend, self.app.loader)
            return cls
        except Exception:
            return None

    # --- the user's code ----------------------------------------------------------------------------
    @cached_property
    def user_modules(self) -> list:
        """Modules of the user's project the load imported (their files are read by the source rules)."""
        modules = [sys.modules.get(name) for name in self.loaded.modules]
        spec_module = sys.modules.get(self.loaded.spec.partition(":")[0])
        if spec_module is not None and spec_module not in modules:
            modules.insert(0, spec_module)
        return [module for module in modules if module is not None and is_user_module(module)]

    # --- time -----------------------------------------------------------------------------------------
    def time_limits(self, task) -> tuple:
        """(hard, soft): the limits a worker applies to the task, its own else the app-wide settings. Celery 5.7
        copies task_time_limit into each task; 5.3 to 5.6 leave the task's None and the pool applies the setting."""
        hard = task.time_limit if task.time_limit is not None else self.conf.task_time_limit
        soft = task.soft_time_limit if task.soft_time_limit is not None else self.conf.task_soft_time_limit
        return hard, soft

    def limit(self, task) -> float | None:
        """The longest a task may run before the pool stops it (the hard limit, else the soft one)."""
        values = [value for value in self.time_limits(task) if value]
        return max(values) if values else None

    def acks_late(self, task) -> bool:
        return bool(getattr(task, "acks_late", False))
