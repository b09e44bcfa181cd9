"""Rules on what no worker can get past: a backend or transport that cannot be made, a serializer it refuses, Beat arguments."""
from __future__ import annotations

import inspect

from kombu.serialization import prepare_accept_content, registry

from celerylab.audit.appview import task_module
from celerylab.audit.model import Hit
from celerylab.audit.registry import rule


def failure(error: BaseException) -> str:
    return f"{type(error).__name__}: {error}".strip()


@rule("CL118", "backend-or-transport-unusable", "critical", "defect")
def backend_or_transport_unusable(view):
    """The result backend's and the broker transport's classes, resolved and made as a worker makes them
    (neither connects until used): a removed backend (`amqp`), a misspelled scheme, a missing client library."""
    from celery.app.backends import by_url

    backend = view.conf.result_backend
    if view.backend_scheme:
        try:
            cls, url = by_url(backend, view.app.loader)
            cls(app=view.app, url=url)
        except Exception as error:
            yield Hit("result_backend", {"setting": "result_backend", "value": view.backend_scheme,
                                         "error": failure(error)})
    try:
        view.app.connection_for_write().transport  # noqa: B018 - making the transport imports its client library
    except Exception as error:
        yield Hit("broker_url", {"setting": "broker_url", "value": view.broker_scheme, "error": failure(error)})


def content_type(serializer) -> str | None:
    """The content type a serializer name (or a content type) publishes with; None for an unregistered one."""
    name = str(serializer).lower()
    return registry.name_to_type.get(name) or (name if name in registry.type_to_name else None)


def accepted(value) -> set[str]:
    return set(prepare_accept_content([value] if isinstance(value, str) else list(value or ())))


@rule("CL119", "serializer-not-accepted", "critical", "defect")
def serializer_not_accepted(view):
    """A message serializer the worker's `accept_content` refuses (every message: ContentDisallowed), or a result
    serializer `result_accept_content` (else `accept_content`) refuses (every result read fails)."""
    conf = view.conf
    accept = accepted(conf.accept_content)
    result_accept = accepted(conf.result_accept_content) if conf.result_accept_content else accept
    checks = [("task_serializer", conf.task_serializer, accept, "accept_content", "")]
    if view.backend_scheme:  # without a result backend no result is stored, and none is read
        checks.append(("result_serializer", conf.result_serializer, result_accept,
                       "result_accept_content" if conf.result_accept_content else "accept_content", ""))
    checks += [(f"{name}.serializer", task.serializer, accept, "accept_content", name)
               for name, task in view.tasks.items() if task.serializer != conf.task_serializer]
    for setting, serializer, allowed, against, task in checks:
        kind = content_type(serializer)
        if kind is not None and kind in allowed:
            continue
        values = {"setting": setting, "serializer": serializer, "against": against,
                  "accepted": ", ".join(sorted(registry.type_to_name.get(t, t) for t in allowed))}
        message = "unregistered" if kind is None else "message"
        if task and task not in view.user_tasks:  # a library's task: sent, if ever, as the library's set-up decides
            yield Hit(setting, {**values, "task": task, "library": task_module(view.tasks[task])}, unknown=True,
                      message="library")
        else:
            yield Hit(setting, values, message=message)


@rule("CL606", "beat-arguments-do-not-fit", "high", "defect")
def beat_arguments_do_not_fit(view):
    """Beat's `args`/`kwargs` bound to the task's own signature, as the worker will call it: a TypeError there
    fails every run."""
    for entry, spec in sorted((view.conf.beat_schedule or {}).items()):
        if not isinstance(spec, dict):
            continue
        task = view.app.tasks.get(spec.get("task"))
        args, kwargs = spec.get("args", ()) or (), spec.get("kwargs", {}) or {}
        if task is None or not isinstance(args, (list, tuple)) or not isinstance(kwargs, dict):
            continue
        try:
            signature = inspect.signature(task.run)
        except (TypeError, ValueError):
            continue
        try:
            signature.bind(*args, **kwargs)
        except TypeError as error:
            yield Hit(entry, {"entry": entry, "task": task.name, "signature": f"{task.name}{signature}",
                              "error": str(error)}, anchor=("beat_schedule", entry))
