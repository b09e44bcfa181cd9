"""Revoke a bulk send the worker holds for its countdown: what the backend and the row say, then and at its time."""
import time
from dataclasses import dataclass

import httpx

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class RevokeQueued:
    endpoint_revoked_before_eta: bool  # GET /tasks/{id} read REVOKED before the countdown ran out
    row_at_that_moment: str | None
    row_later: str | None              # the row once it left `queued`
    result: object                     # the row's result then
    worker_discarded: bool             # "Discarding revoked task" in the worker's log


def revoke_queued(stack: Stack, http: httpx.Client, countdown: float = 4.0) -> RevokeQueued:
    worker = stack.workers[0]
    since = worker.log_offset()
    posted = time.monotonic()  # the API sets the ETA after this instant: `countdown` is its earliest
    bulk_id = http.post("/emails/bulk", params={"countdown": countdown}, json=["d@example.com"]).json()["task_id"]
    worker.wait_for_log(rf"l04.bulk\[{bulk_id}\] received", timeout=5, since=since)
    stack.app.control.revoke(bulk_id)  # what DELETE /tasks/{id} calls (web.cancel)
    revoked = helpers.until(lambda: http.get(f"/tasks/{bulk_id}").json()["status"] == "REVOKED", timeout=5)
    before_eta = bool(revoked) and time.monotonic() - posted < countdown
    row_then = (helpers.row(stack, bulk_id) or {}).get("state")
    job = helpers.wait_row_left(stack, bulk_id, ("queued",), timeout=countdown + 10)
    discarded = worker.wait_for_log(rf"Discarding revoked task: l04.bulk\[{bulk_id}\]", timeout=countdown + 5,
                                    since=since)
    return RevokeQueued(before_eta, row_then, job["state"] if job else None, job["result"] if job else None, bool(discarded))
