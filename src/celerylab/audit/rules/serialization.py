"""Rules on serializers: pickle accepted by the worker, or produced by the app."""
from __future__ import annotations

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule

PICKLE = {"pickle", "application/x-python-serialize"}


def allows_pickle(value) -> bool:
    values = [value] if isinstance(value, str) else list(value or ())
    return any(str(each).lower() in PICKLE for each in values)


@rule("CL107", "pickle-accepted", "critical", "defect")
def pickle_accepted(view):
    for setting in ("accept_content", "result_accept_content"):
        value = view.conf.get(setting)
        if allows_pickle(value):
            yield Hit(setting, {"setting": setting, "value": repr(list(value) if not isinstance(value, str) else value)})


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
