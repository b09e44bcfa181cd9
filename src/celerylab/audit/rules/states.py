"""Rules on a task's state as callers see it: STARTED read but never recorded, or expired mid-run; revoke(terminate)."""
from __future__ import annotations

from datetime import timedelta

from celerylab.audit.model import Hit
from celerylab.audit.registry import rule
from celerylab.audit.usages import started_checks, terminating_revokes, usage_hits


@rule("CL505", "started-never-recorded", "medium", "defect")
def started_never_recorded(view):
    if any(getattr(task, "track_started", False) for task in view.tasks.values()):
        return
    yield from usage_hits(view, started_checks)


@rule("CL506", "started-expires-mid-run", "medium", "defect")
def started_expires_mid_run(view):
    expires = view.conf.result_expires
    expires = expires.total_seconds() if isinstance(expires, timedelta) else expires
    if not view.backend_scheme or not expires:
        return
    for name, task in view.tasks.items():
        limit = view.limit(task)
        if getattr(task, "track_started", False) and not task.ignore_result and limit and limit > expires:
            yield Hit(name, {"task": name, "limit": f"{limit:g}", "expires": f"{expires:g}"})


@rule("CL507", "revoke-terminate-in-code", "medium", "practice")
def revoke_terminate_in_code(view):
    yield from usage_hits(view, terminating_revokes)
