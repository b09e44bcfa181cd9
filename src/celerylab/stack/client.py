"""The stack's own client app: the module app's settings, bound to one stack's broker only."""
from __future__ import annotations

import importlib
import os
import sys

from celery import Celery

from celerylab.stack import appconfig
from celerylab.stack.errors import StackError


def client_app(module_name: str, url: str, namespace: str, settings: dict,
               pythonpath: list[str]) -> tuple[Celery, Celery]:
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
    appconfig.rebind_all(url, namespace)
    appconfig.rebind(module_app, url, namespace)
    appconfig.apply_settings(module_app, settings)
    client = Celery(module_app.main, set_as_current=False)
    client.conf.update(module_app.conf.table(with_defaults=False))
    appconfig.apply_settings(client, appconfig.stack_settings(url, namespace))
    appconfig.apply_settings(client, settings)
    return client, module_app
