"""Revoke a held send, restart the worker: how many revoked ids it remembers, and what becomes of the send."""
from dataclasses import dataclass

import httpx

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class RevokeRestart:
    remembered: bool               # the id was in the worker's revoked list before the restart
    revoked_in_memory: int         # how many ids that list held then
    revoked_after_restart: int     # and after the restart
    row_state: str | None          # the send's row once it left queued/running
    tasks_endpoint: str


def revoke_restart(stack: Stack, http: httpx.Client, countdown: float = 6) -> RevokeRestart:
    worker = stack.workers[0]
    since = worker.log_offset()
    bulk_id = http.post("/emails/bulk", params={"countdown": countdown}, json=["e@example.com"]).json()["task_id"]
    worker.wait_for_log(rf"l04.bulk\[{bulk_id}\] received", timeout=5, since=since)
    stack.app.control.revoke(bulk_id)  # revoked while the worker holds it
    remembered = helpers.until(lambda: bulk_id in helpers.revoked_ids(stack, worker), timeout=5)
    in_memory = len(helpers.revoked_ids(stack, worker))  # inspect().revoked(), asked until the worker answers
    worker.restart()                                      # warm shutdown: the held message goes back to the broker
    after = len(helpers.revoked_ids(stack, worker))
    job = helpers.wait_row_left(stack, bulk_id, ("queued", "running"), timeout=countdown + 24)
    return RevokeRestart(bool(remembered), in_memory, after, job["state"] if job else None,
                         http.get(f"/tasks/{bulk_id}").json()["status"])
