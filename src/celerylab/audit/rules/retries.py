"""Rules on retries: what autoretry_for catches, the ceiling, and the waits Celery really computes."""
from __future__ import annotations

import ast
import inspect

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.sources import body, function_of
from celerylab.i18n import t


def autoretries(task) -> bool:
    return bool(getattr(task, "autoretry_for", ()))


def retries_by_hand(task) -> bool:
    """The task body calls `.retry(` (bind=True and self.retry), read from its source."""
    try:
        return ".retry(" in inspect.getsource(function_of(task))
    except (OSError, TypeError):
        return False


def capped_in_body(task) -> bool:
    """Every `.retry(` call of the body passes its own ceiling (`self.retry(exc=e, max_retries=5)`), which wins over
    the task's max_retries."""
    found = body(task)
    tree = found.node if found and isinstance(found.node, ast.AST) else None
    calls = [node for node in ast.walk(tree) if isinstance(node, ast.Call)
             and isinstance(node.func, ast.Attribute) and node.func.attr == "retry"] if tree else []
    return bool(calls) and all(
        any(keyword.arg == "max_retries" and not (isinstance(keyword.value, ast.Constant) and keyword.value.value is None)
            for keyword in call.keywords) for call in calls)


def retries(task) -> bool:
    return autoretries(task) or retries_by_hand(task)


def retry_kwargs(task) -> dict:
    return dict(getattr(task, "retry_kwargs", None) or {})


def effective_max_retries(task):
    kwargs = retry_kwargs(task)
    return kwargs["max_retries"] if autoretries(task) and "max_retries" in kwargs else task.max_retries


def backoff(task):
    return getattr(task, "retry_backoff", False)


def longest_retry_wait(task) -> tuple[str, float] | None:
    """(which option, seconds): the longest countdown this task's retries can ask for."""
    if not retries(task):
        return None
    kwargs = retry_kwargs(task)
    if autoretries(task) and backoff(task):
        maximum = int(getattr(task, "retry_backoff_max", 600))
        tries = effective_max_retries(task)  # retry_kwargs' max_retries, as autoretry passes it to retry()
        longest = maximum if tries is None else min(maximum, int(max(1.0, backoff(task))) * 2 ** max(tries - 1, 0))
        return "retry_backoff_max", float(longest)
    if autoretries(task) and "countdown" in kwargs:
        return "retry_kwargs['countdown']", float(kwargs["countdown"])
    return "default_retry_delay", float(task.default_retry_delay or 0)


@rule("CL301", "autoretry-catches-everything", "medium", "defect")
def autoretry_catches_everything(view):
    for name, task in view.tasks.items():
        caught = tuple(getattr(task, "autoretry_for", ()) or ())
        ceiling = effective_max_retries(task)
        if ceiling == 0:  # max_retries=0: the first failure is final, nothing is retried
            continue
        if not any(kind in (Exception, BaseException) for kind in caught):
            continue
        values = {"task": name, "exceptions": "(" + ", ".join(k.__name__ for k in caught) + ",)"}
        if ceiling == 1:
            # a single retry (hypothesis/h's indexer tasks, grafana/oncall's syncs): a permanent error ends in FAILURE
            # on the second try, one delay later; whether running the body twice does harm is in the body
            wait = longest_retry_wait(task)  # with one retry, the longest wait is its only one
            yield Hit(name, {**values, "delay": f"{wait[1] if wait else 0:g}"}, unknown=True, message="once")
        else:
            yield Hit(name, values)


@rule("CL302", "unbounded-retries", "high", "defect")
def unbounded_retries(view):
    for name, task in view.tasks.items():
        if effective_max_retries(task) is None:
            how = "autoretry_for" if autoretries(task) else \
                "self.retry()" if retries_by_hand(task) and not capped_in_body(task) else ""
            if how:
                yield Hit(name, {"task": name, "how": how})


@rule("CL303", "backoff-max-zero", "high", "defect")
def backoff_max_zero(view):
    for name, task in view.tasks.items():
        maximum = getattr(task, "retry_backoff_max", 600)
        if autoretries(task) and backoff(task) and int(maximum) == 0:
            yield Hit(name, {"task": name, "value": maximum, "truncated": int(maximum)})


@rule("CL304", "backoff-truncated", "low", "defect")
def backoff_truncated(view):
    for name, task in view.tasks.items():
        value = backoff(task)
        if autoretries(task) and isinstance(value, float) and value and int(max(1.0, value)) != value:
            yield Hit(name, {"task": name, "value": value, "factor": int(max(1.0, value))})


@rule("CL305", "fixed-retry-rhythm", "medium", "practice")
def fixed_retry_rhythm(view):
    for name, task in view.tasks.items():
        if not autoretries(task):
            continue
        if not backoff(task):
            delay = retry_kwargs(task).get("countdown", task.default_retry_delay)
            yield Hit(name, {"task": name, "detail": t("audit.CL305.no_backoff", delay=delay)})
        elif getattr(task, "retry_jitter", True) is False:
            yield Hit(name, {"task": name}, message="jitter")


@rule("CL306", "countdown-overwritten-by-backoff", "medium", "defect")
def countdown_overwritten_by_backoff(view):
    for name, task in view.tasks.items():
        kwargs = retry_kwargs(task)
        if autoretries(task) and backoff(task) and "countdown" in kwargs:
            yield Hit(name, {"task": name, "countdown": kwargs["countdown"], "backoff": backoff(task)})
