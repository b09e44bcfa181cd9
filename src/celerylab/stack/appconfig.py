"""Celery apps that take their broker from the stack: the factory lessons use, and rebinding."""
from __future__ import annotations

import json
import os
import threading
import weakref

from celery import Celery

BROKER_ENV = "CELERYLAB_STACK_BROKER"
NAMESPACE_ENV = "CELERYLAB_NAMESPACE"
SETTINGS_ENV = "CELERYLAB_SETTINGS"
DEFAULT_URL = "redis://localhost:6379/0"

_apps: "weakref.WeakSet[Celery]" = weakref.WeakSet()
#: Settings whose dict values are merged into the stack's, so that a lesson's transport options
#: (a visibility timeout, say) keep the stack's key namespace instead of replacing it.
MERGED = ("broker_transport_options", "result_backend_transport_options")


def stack_settings(url: str, namespace: str = "") -> dict:
    """Settings that point an app at one stack's broker and backend, inside its key namespace."""
    options = {"global_keyprefix": namespace} if namespace else {}
    return {
        "broker_url": url,
        "result_backend": url,
        "broker_transport_options": dict(options),
        "result_backend_transport_options": dict(options),
        "broker_connection_retry_on_startup": True,
        "worker_send_task_events": True,
        "task_send_sent_event": True,
        "worker_hijack_root_logger": True,
        "worker_redirect_stdouts_level": "INFO",
        # celery-redbeat keeps its schedule and lock under its own keys: namespace them too.
        "redbeat_redis_url": url,
        "redbeat_key_prefix": f"{namespace}redbeat",
        "redbeat_lock_timeout": 5,
    }


def env_settings() -> dict:
    """The stack settings from the environment the stack gives its processes.

    Outside a stack (compose, a shell), REDIS_URL is honoured, as the course notes do.
    """
    url = os.environ.get(BROKER_ENV) or os.environ.get("REDIS_URL") or DEFAULT_URL
    return stack_settings(url, os.environ.get(NAMESPACE_ENV, ""))


def apply_settings(app: Celery, settings: dict) -> None:
    """``app.conf.update(settings)``, except that the MERGED dicts are merged into the current ones."""
    merged = {key: {**(app.conf.get(key) or {}), **value} for key, value in settings.items()
              if key in MERGED and isinstance(value, dict)}
    app.conf.update({**settings, **merged})


def create_app(name: str, include: list[str] | tuple[str, ...] = (), **settings) -> Celery:
    """A Celery app configured for the current stack; `settings` are applied on top."""
    app = Celery(name, include=list(include))
    app.conf.update(env_settings())
    apply_settings(app, settings)
    apply_settings(app, json.loads(os.environ.get(SETTINGS_ENV) or "{}"))
    _apps.add(app)
    return app


def rebind(app: Celery, url: str, namespace: str = "") -> Celery:
    """Point an existing app (its cached pools and backend) at another stack.

    The app lets go of its connection pool without closing it: kombu keeps one pool per broker
    process-wide, shared by every app of that broker (the stack's client and the module app), and
    the earlier stack still uses it. The pool is closed when its stack closes (forget_pools).
    """
    app.conf.update(stack_settings(url, namespace))
    app._pool = None
    amqp = app.__dict__.get("amqp")
    if amqp is not None:
        amqp._producer_pool = None
    app._backend_cache = None
    app._local = threading.local()
    return app


def forget_pools(url: str, namespace: str = "") -> None:
    """Close and drop kombu's process-wide connection and producer pools for one stack's broker and namespace.

    A closed pool left in kombu's registry is handed to the next app of an equal connection — a later
    broker on the same port — which then fails with "Acquire on closed pool".
    """
    from kombu import Connection, pools
    from kombu.utils.collections import eqhash

    # kombu keys a pool by its connection's (transport, host, user, password, vhost, port, repr(transport options))
    broker = list(eqhash(Connection(url)))[:-1]
    keyprefix = f"'global_keyprefix': {namespace!r}"

    def same(key) -> bool:
        fields = list(key) if isinstance(key, (list, tuple)) else []
        return bool(fields) and fields[:-1] == broker and (not namespace or keyprefix in str(fields[-1]))

    for group in (pools.producers, pools.connections):  # producers first: each holds a connection pool
        for key in [key for key in list(group) if same(key)]:
            pool = group.pop(key, None)
            if pool is not None:
                try:
                    pool.force_close_all()
                except Exception:
                    pass


def rebind_all(url: str, namespace: str = "") -> None:
    """Rebind every app made by create_app in this process (the notebook's own imports)."""
    for app in list(_apps):
        rebind(app, url, namespace)
