"""The settings a user's project sets (conf.update, assignments, config_from_object, environment) and Celery's names for them."""
from __future__ import annotations

import inspect
from difflib import get_close_matches
from types import ModuleType

from celery import Task
from celery.app.defaults import _OLD_SETTING_KEYS, _TO_NEW_KEY, SETTING_KEYS

# Keys Celery writes itself, and prefixes extensions read from app.conf (celery-redbeat's redbeat_*).
# Keys Celery reads though app/defaults.py declares none of them: its own bookkeeping, and settings a module reads with
# conf.get (celery/backends/base.py: result_backend_thread_safe, read by every backend since 5.5; settings written
# for it are no stray keys).
CELERY_OWN = {"deprecated_settings", "result_backend_thread_safe", "override_backends"}
EXTENSION_PREFIXES = ("redbeat_",)
# kombu transport options people write as settings (`broker_visibility_timeout`), per kombu's Redis/SQS transports.
TRANSPORT_OPTIONS = {"visibility_timeout", "unacked_restore_interval", "unacked_restore_throttle",
                     "unacked_restore_limit", "max_connections", "socket_timeout", "socket_connect_timeout",
                     "fanout_prefix", "fanout_patterns", "global_keyprefix", "queue_order_strategy",
                     "polling_interval", "region", "predefined_queues", "sep", "priority_steps"}


def raw_source_keys(app) -> dict[str, object]:
    """Every value config_from_object gave the app (module, class, object or dict), under its own name."""
    conf = getattr(app.loader, "_conf", None)
    if not conf:
        return {}
    keys: dict[str, object] = {}
    for key in list(conf.keys()):
        if not isinstance(key, str) or key.startswith("_"):
            continue
        try:
            value = conf[key]
        except Exception:  # an attribute whose property raises is no setting of the user's
            continue
        if not (isinstance(value, ModuleType) or inspect.isclass(value) or inspect.isroutine(value)):
            keys[key] = value
    return keys


# Celery's old uppercase names all start so (CELERY_, CELERYD_, CELERYBEAT_, BROKER_); the few others are known keys.
OLD_PREFIXES = ("CELERY", "BROKER_")


def looks_like_celery(key: str) -> bool:
    """A key a settings object read without a namespace may have meant for Celery: a known setting, any lowercase
    key (Celery's own style), or an uppercase one with an old Celery prefix. DEBUG or SECRET_KEY are not."""
    return is_known(key) or not key.isupper() or key.startswith(OLD_PREFIXES)


def source_keys(app) -> dict[str, object]:
    """The user's settings among them, as Celery names them.

    With `namespace="CELERY"` only the keys with that prefix count (a Django settings module holds many
    others), and they are read without it, as Celery reads them.
    """
    prefix = f"{app.namespace}_" if app.namespace else ""
    keys = raw_source_keys(app)
    if not prefix:  # a framework's settings read whole (django.conf:settings, no namespace): its own keys are not ours
        return {key: value for key, value in keys.items() if looks_like_celery(key)}
    # An old name that happens to carry the prefix (CELERY_TASK_RESULT_EXPIRES) is read as the old name it is.
    return {key if key in _OLD_SETTING_KEYS else key[len(prefix):].lower(): value
            for key, value in keys.items() if key.startswith(prefix)}


def user_settings(app) -> dict[str, object]:
    """Every key the user set, by any route, with its value as the app reads it."""
    auto = set(getattr(app, "_preconf_set_by_auto", ()))
    keys = dict(source_keys(app))
    # conf.update(flask_app.config) hands Celery a whole framework's settings: only Celery-looking keys are offered
    keys.update({key: value for key, value in app.conf.changes.items() if key not in auto and looks_like_celery(key)})
    return keys


def is_known(key: str) -> bool:
    return (key in SETTING_KEYS or key in _OLD_SETTING_KEYS or key in CELERY_OWN
            or key.startswith(EXTENSION_PREFIXES))


def new_name(key: str) -> str:
    return _TO_NEW_KEY.get(key, key)


# The settings nearly every app writes: among names equally near a typo, the one people meant (`celery_backend`
# is as near to cache_backend as to result_backend; it means result_backend).
COMMON = {"broker_url", "result_backend", "result_expires", "task_serializer", "result_serializer", "accept_content",
          "timezone", "enable_utc", "task_acks_late", "task_time_limit", "task_soft_time_limit", "task_routes",
          "task_queues", "task_default_queue", "beat_schedule", "imports", "include", "worker_prefetch_multiplier",
          "broker_transport_options", "task_always_eager", "task_track_started", "worker_concurrency"}


def closest(key: str) -> str:
    """The real setting name nearest to `key` ("-" when none is near); a common setting wins among the near ones."""
    pool = sorted(_OLD_SETTING_KEYS) if key.isupper() else sorted(SETTING_KEYS)
    near = get_close_matches(key, pool, n=3)
    if not key.isupper():
        near = sorted(near[:2], key=lambda name: name not in COMMON) + near[2:]
    return (near or ["-"])[0]


# A Task attribute a setting could have meant holds a plain value (max_retries = 3); a property (`backend`)
# or a method is no option anyone sets by name.
PLAIN = (bool, int, float, str, tuple, list, dict, type(None))


def task_attribute(key: str) -> str | None:
    """`task_max_retries` -> `max_retries`: an attribute of Task that a made-up prefix turned into a "setting"."""
    for prefix in ("task_", "celery_task_", "celery_"):
        name = key.lower().removeprefix(prefix) if key.lower().startswith(prefix) else None
        if name and not name.startswith("_") and hasattr(Task, name) \
                and isinstance(inspect.getattr_static(Task, name), PLAIN):
            return name
    return None


def unprefixed(key: str) -> str | None:
    """`CELERY_BROKER_URL` -> `broker_url`: a setting written for `namespace="CELERY"` (Django's style)."""
    name = key[len("CELERY_"):].lower() if key.startswith("CELERY_") else ""
    return name if name in SETTING_KEYS else None


def transport_option(key: str) -> str | None:
    """`broker_visibility_timeout` -> `visibility_timeout`: a kombu transport option written as a setting."""
    for prefix in ("broker_", "celery_broker_", "broker_transport_"):
        if key.lower().startswith(prefix) and key.lower()[len(prefix):] in TRANSPORT_OPTIONS:
            return key.lower()[len(prefix):]
    return None
