"""Revoke a report already on its second page, without or with terminate: what it stops."""
from dataclasses import dataclass

import httpx

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class RevokeRunning:
    row: dict | None               # the job's row once it left queued/running
    tasks_endpoint: str            # GET /tasks/{id} then
    worker_log: bool | None        # "Terminating <id> (15)" in the worker's log (terminate only)
    pool_processes_replaced: int | None


def revoke_running(stack: Stack, http: httpx.Client, terminate: bool, students: int = 4) -> RevokeRunning:
    worker = stack.workers[0]
    since = worker.log_offset()
    report_id = helpers.post_report(http, students=students)
    helpers.wait_progress(stack, report_id, 2)
    before = worker.child_pids()
    stack.app.control.revoke(report_id, terminate=terminate)  # what DELETE /tasks/{id}?terminate=... calls
    job = helpers.wait_row_left(stack, report_id, ("queued", "running"))
    endpoint = http.get(f"/tasks/{report_id}").json()["status"]
    if not terminate:
        return RevokeRunning(job, endpoint, None, None)
    logged = worker.wait_for_log(rf"Terminating {report_id} \(15\)", timeout=5, since=since)
    return RevokeRunning(job, endpoint, bool(logged), helpers.replaced_children(worker, before))
