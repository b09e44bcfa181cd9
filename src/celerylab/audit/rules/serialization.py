"""Rules on serializers: pickle accepted by the worker, or produced by the app."""
from __future__ import annotations

import inspect

from kombu.serialization import registry

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


@rule("CL108", "pickle-produced", "critical", "defect")
def pickle_produced(view):
    for setting in ("task_serializer", "result_serializer", "event_serializer"):
        value = view.conf.get(setting)
        if allows_pickle(value):
            yield Hit(setting, {"setting": setting, "value": repr(value)})
    default = view.conf.task_serializer
    for name, task in view.tasks.items():
        if task.serializer != default and allows_pickle(task.serializer):
            yield Hit(name, {"setting": f"{name}.serializer", "value": repr(task.serializer)})
