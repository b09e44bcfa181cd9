"""Rules on results: expiry off or truncated to nothing; results read with no backend, or of a task that stores none."""
from __future__ import annotations

import sys
from datetime import timedelta

from celery import Task

from celerylab.audit.loader import is_user_module
from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.scan import call_site_files
from celerylab.audit.usages import reads_by_task, result_reads
from celerylab.i18n import t


def seconds(value):
    return value.total_seconds() if isinstance(value, timedelta) else value


def truncates(view) -> bool:
    """The backend turns result_expires into whole seconds with int() (Redis: expires_type=int). Read from the
    class's ancestry by name: importing celery.backends.redis needs the redis client, which an app on another
    backend (doccano's django-db) need not have."""
    cls = view.backend_class
    return any(each.__module__ == "celery.backends.redis" and each.__name__ == "RedisBackend"
               for each in getattr(cls, "__mro__", ()))


def stores_results(view) -> bool:
    return any(not task.ignore_result for task in view.tasks.values())


def own_backend(view) -> str:
    """The dotted name of the result backend when the project wrote it (a class of one of its own modules), else "".
    Its results are what that code makes of them (Nautobot's are JobResult rows, the job history it shows and its
    cleanup job deletes): whether something removes them is read there, not from result_expires."""
    cls = view.backend_class
    module = sys.modules.get(getattr(cls, "__module__", "") or "")
    return f"{cls.__module__}.{cls.__qualname__}" if module is not None and is_user_module(module) else ""


@rule("CL501", "results-never-expire", "high", "defect")
def results_never_expire(view):
    if not view.backend_scheme or view.backend_scheme == "rpc" or not stores_results(view):
        return
    value = seconds(view.conf.result_expires)
    if not value and own_backend(view):
        yield Hit("result_expires", {"value": repr(value), "backend": own_backend(view)}, unknown=True,
                  message="unknown")
    elif not value:
        yield Hit("result_expires", {"value": repr(value), "detail": t("audit.CL501.off")})
    elif truncates(view) and int(value) == 0:
        yield Hit("result_expires", {"value": repr(value),
                                     "detail": t("audit.CL501.truncated", backend=view.backend_scheme)})


@rule("CL504", "result-expires-truncated", "low", "defect")
def result_expires_truncated(view):
    value = seconds(view.conf.result_expires)
    if view.backend_scheme and stores_results(view) and truncates(view) and value and value >= 1 and int(value) != value:
        yield Hit("result_expires", {"value": repr(value), "truncated": int(value), "backend": view.backend_scheme})


def reads(view):
    return [usage for path in call_site_files(view) for usage in result_reads(path, view.loaded.folder)]


@rule("CL502", "results-read-without-backend", "high", "defect")
def results_read_without_backend(view):
    if view.backend_scheme:
        return
    for usage in reads(view):
        yield Hit(f"{usage.file}:{usage.line}", {"file": usage.file, "line": usage.line,
                                                 "expression": usage.expression}, file=usage.file, line=usage.line)


@rule("CL503", "results-discarded", "low", "practice")
def results_discarded(view):
    if view.backend_scheme or view.conf.task_ignore_result or reads(view):
        return
    storing = [name for name, task in view.tasks.items() if not task.ignore_result]
    if storing:
        yield Hit("result_backend", {"count": len(storing)})


@rule("CL508", "result-of-ignored-task-read", "high", "defect")
def result_of_ignored_task_read(view):
    for module in view.user_modules:
        path = getattr(module, "__file__", "") or ""
        if not path.endswith(".py"):
            continue
        for variable, usage in reads_by_task(path, view.loaded.folder):
            task = vars(module).get(variable)
            if isinstance(task, Task) and task.ignore_result:
                yield Hit(f"{usage.file}:{usage.line}", {"file": usage.file, "line": usage.line, "task": task.name,
                                                         "expression": usage.expression},
                          file=usage.file, line=usage.line)
