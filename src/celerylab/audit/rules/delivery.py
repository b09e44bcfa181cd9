"""Rules on delivery: acks_late against the Redis visibility timeout, countdowns the sweep duplicates, prefetch."""
from __future__ import annotations

from celerylab.audit.delays import delayed_sends
from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.rules.retries import longest_retry_wait
from celerylab.audit.scan import call_site_files
from celerylab.i18n import t

# A task that may run this long (or has no limit) counts as long for prefetch: one reserved behind it waits that much.
LONG_TASK_SECONDS = 60


def vt_values(view) -> dict:
    seconds, configured = view.visibility_timeout
    return {"vt": f"{seconds:g}", "vt_source": t("audit.vt.configured" if configured else "audit.vt.default")}

def acks_late_past(view, seconds: float, values: dict):
    """A hit per `acks_late` task whose time limit reaches `seconds`, and one undecided hit naming those without a
    limit (the broker takes the message back, or closes the channel, while such a task still runs)."""
    unlimited = []
    for name, task in view.tasks.items():
        if not view.acks_late(task):
            continue
        limit = view.limit(task)
        if limit is None:
            unlimited.append(name)
        elif limit >= seconds:
            yield Hit(name, {"task": name, "limit": f"{limit:g}", **values})
    if unlimited:
        yield Hit("acks_late", {"task": ", ".join(unlimited), **values}, unknown=True, message="unknown")


@rule("CL401", "visibility-timeout-below-limit", "high", "defect")
def visibility_timeout_below_limit(view):
    if not view.has_visibility_timeout:
        return
    seconds, _ = view.visibility_timeout
    yield from acks_late_past(view, seconds, vt_values(view))


@rule("CL402", "countdown-beyond-visibility-timeout", "high", "defect")
def countdown_beyond_visibility_timeout(view):
    if not view.has_visibility_timeout:
        return
    seconds, _ = view.visibility_timeout
    for name, task in view.tasks.items():
        wait = longest_retry_wait(task)
        if wait and wait[1] >= seconds:
            yield Hit(name, {"where": f"{name}: {wait[0]}", "countdown": f"{wait[1]:g}", **vt_values(view)})
    for entry, spec in sorted((view.conf.beat_schedule or {}).items()):
        countdown = ((spec or {}).get("options") or {}).get("countdown")
        if countdown and float(countdown) >= seconds:
            yield Hit(entry, {"where": f"beat_schedule['{entry}'].options.countdown", "countdown": f"{countdown:g}",
                              **vt_values(view)})


def long_tasks(view, tasks) -> list[str]:
    return [name for name, task in tasks.items()
            if view.limit(task) is None or view.limit(task) >= LONG_TASK_SECONDS]


@rule("CL403", "acks-late-prefetch", "high", "defect")
def acks_late_prefetch(view):
    multiplier = view.conf.worker_prefetch_multiplier
    if multiplier == 1:
        return
    late = long_tasks(view, {name: task for name, task in view.tasks.items() if view.acks_late(task)})
    values = {"multiplier": multiplier, "count": len(late), "tasks": ", ".join(late)}
    if any(view.limit(view.tasks[name]) is None or own_limit(view, view.tasks[name]) for name in late):
        yield Hit("worker_prefetch_multiplier", values)
    elif late:
        yield Hit("worker_prefetch_multiplier", values, unknown=True, message="unknown")


def own_limit(view, task) -> bool:
    """The task sets its own time limit (its decorator, its class): a statement of how long that task runs. Without
    one a task is either unbounded (a hung one holds the reserved messages for good) or capped by the app-wide
    task_time_limit, an allowance every task gets (hypothesis/h's 240 s), no evidence of a long task (as CL404).
    Celery 5.7 copies the app-wide limits into each task: a value equal to the setting is the setting's."""
    keywords = view.declared(task).keywords
    if "time_limit" in keywords or "soft_time_limit" in keywords:
        return True
    return any(value is not None and value != app_wide
               for value, app_wide in ((task.time_limit, view.conf.task_time_limit),
                                       (task.soft_time_limit, view.conf.task_soft_time_limit)))


@rule("CL404", "long-tasks-default-prefetch", "medium", "practice")
def long_tasks_default_prefetch(view):
    """Undecided: a time limit of a minute or more allows a long task but is no evidence of one."""
    multiplier = view.conf.worker_prefetch_multiplier
    if multiplier == 1 or "worker_prefetch_multiplier" in view.user:
        return
    limited = {name: task for name, task in view.tasks.items()
               if not view.acks_late(task) and view.limit(task) and view.limit(task) >= LONG_TASK_SECONDS}
    if limited:  # a limit is an allowance, not a duration: no run of these tasks says they are long
        yield Hit("worker_prefetch_multiplier", {"multiplier": multiplier, "count": len(limited),
                                                 "tasks": ", ".join(limited)}, unknown=True, message="unknown")


@rule("CL405", "acks-late-worker-lost", "medium", "defect")
def acks_late_worker_lost(view):
    exposed = [name for name, task in view.tasks.items()
               if view.acks_late(task) and not getattr(task, "reject_on_worker_lost", False)
               and not getattr(task, "retry_on_worker_lost", False)]
    if exposed:
        yield Hit("task_reject_on_worker_lost", {"count": len(exposed), "tasks": ", ".join(exposed)})


AMQP_SCHEMES = {"amqp", "amqps", "pyamqp", "librabbitmq"}


@rule("CL407", "visibility-timeout-on-amqp", "medium", "defect")
def visibility_timeout_on_amqp(view):
    options = view.conf.broker_transport_options or {}
    if view.broker_scheme in AMQP_SCHEMES and "visibility_timeout" in options:
        yield Hit("broker_transport_options", {"vt": options["visibility_timeout"], "scheme": view.broker_scheme})


# RabbitMQ's default consumer_timeout (15 min in 3.8.15, 30 min from 3.8.17): an unacknowledged delivery older than that closes the channel.
CONSUMER_TIMEOUT_SECONDS = 1800


@rule("CL408", "acks-late-beyond-consumer-timeout", "high", "defect")
def acks_late_beyond_consumer_timeout(view):
    if view.broker_scheme not in AMQP_SCHEMES:
        return
    yield from acks_late_past(view, CONSUMER_TIMEOUT_SECONDS, {"timeout": CONSUMER_TIMEOUT_SECONDS})
    # A countdown or ETA waits in the worker unacknowledged too (no native delay before 5.5, nor on classic queues).
    for path in call_site_files(view):
        for delay, usage in delayed_sends(path, view.loaded.folder):
            if delay >= CONSUMER_TIMEOUT_SECONDS:
                where = f"{usage.file}:{usage.line}"
                yield Hit(where, {"where": where, "expression": usage.expression, "countdown": f"{delay:g}",
                                  "timeout": CONSUMER_TIMEOUT_SECONDS}, message="countdown", file=usage.file,
                          line=usage.line)


def queue_is_quorum(view, queue) -> bool:
    arguments = queue.queue_arguments or {}
    # task_default_queue_type is new in Celery 5.5: before it, every queue is classic unless its arguments say so
    return arguments.get("x-queue-type", view.conf.get("task_default_queue_type", "classic")) == "quorum"


@rule("CL409", "quorum-queue-on-direct-exchange", "medium", "defect")
def quorum_queue_on_direct_exchange(view):
    if view.broker_scheme not in AMQP_SCHEMES:
        return
    for name, queue in sorted(view.app.amqp.queues.items()):
        exchange_type = queue.exchange.type if queue.exchange is not None else "direct"
        if queue_is_quorum(view, queue) and exchange_type == "direct":
            yield Hit(name, {"queue": name, "exchange": queue.exchange.name if queue.exchange is not None else ""})
