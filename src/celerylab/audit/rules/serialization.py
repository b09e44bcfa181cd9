"""Rules on serializers: pickle accepted by the worker, or produced by the app."""
from __future__ import annotations

import inspect

from kombu.serialization import registry

from celerylab.audit.appview import task_module
from celerylab.audit.model import Hit
from celerylab.audit.registry import rule

PICKLE = {"pickle", "application/x-python-serialize"}
UNPICKLERS = ("pickle", "jsonpickle", "dill", "cloudpickle")


def unpickles(decoder) -> bool:
    """A decoder that is, or calls, an unpickler (jsonpickle.decode, pickle.loads): loading runs code."""
    module = getattr(decoder, "__module__", "") or ""
    if module.startswith("kombu."):
        return False
    if module.partition(".")[0] in UNPICKLERS:
        return True
    try:
        source = inspect.getsource(decoder)
    except (OSError, TypeError):
        return False
    return any(f"{name}." in source or f"import {name}" in source for name in UNPICKLERS)


def unpickling_types(value) -> list[tuple[str, object]]:
    """(accepted name, decoder) for each accepted content type whose registered decoder unpickles."""
    found = []
    for name in [value] if isinstance(value, str) else list(value or ()):
        content_type = registry.name_to_type.get(str(name), str(name))
        decoder = registry._decoders.get(content_type)
        if decoder is not None and str(name).lower() not in PICKLE and unpickles(decoder):
            found.append((str(name), decoder))
    return found


def allows_pickle(value) -> bool:
    values = [value] if isinstance(value, str) else list(value or ())
    return any(str(each).lower() in PICKLE for each in values)


@rule("CL107", "pickle-accepted", "critical", "defect")
def pickle_accepted(view):
    for setting in ("accept_content", "result_accept_content"):
        value = view.conf.get(setting)
        if allows_pickle(value):
            yield Hit(setting, {"setting": setting, "value": repr(list(value) if not isinstance(value, str) else value)})
        for name, decoder in unpickling_types(value):
            yield Hit(f"{setting}:{name}", {"setting": setting, "content": name,
                                            "decoder": f"{decoder.__module__}.{decoder.__qualname__}"},
                      message="decoder", anchor=())


def produced(view) -> tuple[str, ...]:
    """The app-wide serializer settings whose output someone reads: `result_serializer` only with a result backend
    (without one no result is stored, and nothing decodes it)."""
    return ("task_serializer", "result_serializer", "event_serializer") if view.backend_scheme else \
        ("task_serializer", "event_serializer")


@rule("CL108", "pickle-produced", "critical", "defect")
def pickle_produced(view):
    """Pickle produced by the app's settings or by one of the project's tasks; a library's task (registered by its
    import, sent, if ever, by the library's own code as its set-up decides) is left undecided."""
    for setting in produced(view):
        value = view.conf.get(setting)
        if allows_pickle(value):
            yield Hit(setting, {"setting": setting, "value": repr(value)})
    default = view.conf.task_serializer
    for name, task in view.tasks.items():
        if task.serializer != default and allows_pickle(task.serializer):
            values = {"setting": f"{name}.serializer", "value": repr(task.serializer)}
            if name in view.user_tasks:
                yield Hit(name, values)
            else:
                yield Hit(name, {**values, "task": name, "library": task_module(task)}, unknown=True,
                          message="library")
