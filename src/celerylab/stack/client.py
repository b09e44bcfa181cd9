"""The stack's own client app: the module app's settings, bound to one stack's broker only."""
from __future__ import annotations

import importlib
import os
import sys
from dataclasses import dataclass

from celery import Celery

from celerylab.stack import appconfig
from celerylab.stack.errors import StackError


@dataclass(frozen=True)
class Binding:
    """Which stack the process's own apps talk to: its id, the module app, broker, namespace, settings."""

    owner: str
    module_app: Celery
    url: str
    namespace: str
    settings: dict


_bindings: list[Binding] = []  # one per open stack, the most recently started last
_UNSET = object()
# Per module app (by id): the value each key had before any stack's settings touched it.
_own_settings: dict[int, dict[str, object]] = {}


def _restore_own_settings(app: Celery) -> None:
    """Undo every stack's settings on the module app: a stack's settings are not the next stack's."""
    for key, value in _own_settings.get(id(app), {}).items():
        if value is _UNSET:
            app.conf.changes.pop(key, None)
        else:
            app.conf[key] = value


def _bind(binding: Binding) -> None:
    """The module app on this binding's stack: its own settings back, then the stack's broker, then the stack's settings.

    In that order: restoring after the rebind put back an earlier stack's `broker_transport_options` (with its key
    namespace) over the one the rebind had just set, and the app published where no worker reads."""
    os.environ[appconfig.BROKER_ENV] = binding.url
    os.environ[appconfig.NAMESPACE_ENV] = binding.namespace
    appconfig.rebind_all(binding.url, binding.namespace)
    _restore_own_settings(binding.module_app)
    own = _own_settings.setdefault(id(binding.module_app), {})
    for key in binding.settings:
        own.setdefault(key, binding.module_app.conf.changes.get(key, _UNSET))
    appconfig.rebind(binding.module_app, binding.url, binding.namespace)
    appconfig.apply_settings(binding.module_app, binding.settings)


def release(owner: str) -> None:
    """A stack closes: if the process's apps were bound to it, give them back to the latest open stack.

    A notebook that runs a check (which starts and closes its own stack) keeps sending
    ``tasks.x.delay()`` to the lesson's stack afterwards, not to a closed broker.
    """
    was_current = bool(_bindings) and _bindings[-1].owner == owner
    _bindings[:] = [binding for binding in _bindings if binding.owner != owner]
    if was_current and _bindings:
        _bind(_bindings[-1])


def client_app(module_name: str, url: str, namespace: str, settings: dict,
               pythonpath: list[str], owner: str = "") -> tuple[Celery, Celery]:
    """(client, module_app): a fresh app for ``stack.app`` and the module's own app, both rebound.

    The module's app (what ``tasks.some_task.delay()`` uses in a notebook) is rebound to the
    most recently started stack; the client always talks to this one.
    """
    os.environ[appconfig.BROKER_ENV] = url
    os.environ[appconfig.NAMESPACE_ENV] = namespace
    for path in reversed(pythonpath):
        if path not in sys.path:
            sys.path.insert(0, path)
    try:
        module = importlib.import_module(module_name)
    except ImportError as error:
        raise StackError("stack.no_module", module=module_name, error=error) from error
    except Exception as error:
        raise StackError("stack.module_error", module=module_name, error=error) from error
    module_app = getattr(module, "app", None) or getattr(module, "celery", None)
    if not isinstance(module_app, Celery):
        raise StackError("stack.no_app", module=module_name)
    binding = Binding(owner, module_app, url, namespace, dict(settings))
    _bind(binding)
    _bindings.append(binding)
    client = Celery(module_app.main, set_as_current=False)
    client.conf.update(module_app.conf.table(with_defaults=False))
    appconfig.apply_settings(client, appconfig.stack_settings(url, namespace))
    appconfig.apply_settings(client, settings)
    return client, module_app
