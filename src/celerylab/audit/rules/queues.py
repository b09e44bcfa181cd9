"""Rules on queues: a route, task or Beat entry sending to a queue that task_queues does not declare."""
from __future__ import annotations

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.rules.registration import label, matches, route_maps
from celerylab.audit.scan import call_site_files
from celerylab.audit.sources import function_of
from celerylab.audit.usages import default_sends, queue_sends


def queue_name(value) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict):
        queue = value.get("queue")
        return getattr(queue, "name", queue)
    return getattr(value, "name", None)


def declared_queues(view) -> set[str] | None:
    queues = view.conf.task_queues
    if queues is None:
        return None
    if isinstance(queues, dict):
        return set(queues)
    return {getattr(queue, "name", queue) for queue in queues}


def unrouted_tasks(view) -> list[str]:
    """The tasks no route and no `queue=` of their own send elsewhere: sent as they are, they go to the default queue."""
    return [name for name, task in view.tasks.items() if not getattr(task, "queue", None)
            and not any(matches(pattern, {name}) for routes in route_maps(view) for pattern in routes)]


def destinations(view):
    """(where, queue) for every queue the app's configuration sends to."""
    for routes in route_maps(view):
        for pattern, target in routes.items():
            yield f"task_routes['{label(pattern)}']", queue_name(target)
    unrouted = []
    for name, task in view.tasks.items():
        if getattr(task, "queue", None):
            yield name, queue_name(task.queue)
        elif not any(matches(pattern, {name}) for routes in route_maps(view) for pattern in routes):
            unrouted.append(name)
    for entry, spec in sorted((view.conf.beat_schedule or {}).items()):
        options = (spec or {}).get("options") or {}
        if options.get("queue"):
            yield f"beat_schedule['{entry}']", queue_name(options["queue"])
    if unrouted:  # the tasks no route or queue= sends elsewhere go to the default queue
        yield "task_default_queue", view.conf.task_default_queue


def sends_to_default(view) -> bool:
    """Whether the project sends an unrouted task without naming a queue: a Beat entry with no `options.queue`, or a
    call site (loaded modules and --scan) of one (`.delay()`, `.apply_async()` or a signature without `queue=`,
    `send_task` by its name)."""
    unrouted = unrouted_tasks(view)
    for spec in (view.conf.beat_schedule or {}).values():
        if isinstance(spec, dict) and spec.get("task") in unrouted and not (spec.get("options") or {}).get("queue"):
            return True
    receivers = {name.rpartition(".")[2] for name in unrouted}
    receivers |= {getattr(function_of(view.tasks[name]), "__name__", "") for name in unrouted}
    return any(default_sends(path, receivers - {""}, set(unrouted)) for path in call_site_files(view))


def anchor(where: str) -> tuple[str, ...]:
    """What to look for in the source: the route's own key, the Beat entry, the task (located at its decorator)."""
    if where.startswith("task_routes['"):
        return ("task_routes", where[len("task_routes['"):-2])
    if where.startswith("beat_schedule['"):
        return ("beat_schedule", where[len("beat_schedule['"):-2])
    return ()


def undeclared(view):
    declared = declared_queues(view)
    if declared is None:
        return
    names = ", ".join(sorted(declared))
    for where, queue in destinations(view):
        if queue and queue not in declared:
            sent = where != "task_default_queue" or sends_to_default(view)  # else no send found takes the default
            yield Hit(where, {"where": where, "queue": queue, "declared": names}, anchor=anchor(where),
                      unknown=not sent, message="message" if sent else "unsent")
    for path in call_site_files(view):
        for queue, usage in queue_sends(path, view.loaded.folder):
            if queue not in declared:
                yield Hit(f"{usage.file}:{usage.line}", {"where": usage.expression, "queue": queue, "declared": names},
                          file=usage.file, line=usage.line)


@rule("CL701", "undeclared-queue", "high", "defect")
def undeclared_queue(view):
    if view.conf.task_create_missing_queues:
        yield from undeclared(view)


@rule("CL702", "undeclared-queue-not-created", "critical", "defect")
def undeclared_queue_not_created(view):
    if not view.conf.task_create_missing_queues:
        yield from undeclared(view)
