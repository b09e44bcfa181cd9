"""The route beside the job's row for five situations the backend may read as PENDING."""
import uuid
from dataclasses import dataclass

import httpx

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class RowVsBackend:
    rows: list[dict]  # situation, tasks_endpoint, row_state, row_result, backend_key


def row_vs_backend(stack: Stack, http: httpx.Client, countdown: float = 6) -> RowVsBackend:
    welcome = http.post("/users", json={"name": "Bia", "email": "bia@example.com"}).json()["task_id"]
    helpers.wait_row_left(stack, welcome, ("queued", "running"))
    helpers.until(lambda: http.get(f"/tasks/{welcome}").json()["status"] == "PENDING", timeout=6)  # result expired
    bulk = http.post("/emails/bulk", params={"countdown": countdown}, json=["c@example.com"]).json()["task_id"]
    report = helpers.post_report(http, students=8, step=0.5)  # 4 s: still running when the cell reads it
    refused = http.post("/users", json={"name": "Zé", "email": "no-address"}).json()["task_id"]
    helpers.wait_progress(stack, report, 1)
    helpers.wait_row_left(stack, refused, ("queued", "running"))

    rows = []
    for situation, job_id in [("expired", welcome), ("invented", str(uuid.uuid4())), ("countdown", bulk),
                              ("running", report), ("refused", refused)]:
        job = helpers.row(stack, job_id)  # SELECT ... FROM jobs WHERE id = ?
        rows.append({"situation": situation, "tasks_endpoint": http.get(f"/tasks/{job_id}").json()["status"],
                     "row_state": job["state"] if job else "-", "row_result": job["result"] if job else "-",
                     "backend_key": bool(helpers.redis_client(stack).exists(
                         stack.app.backend.get_key_for_task(job_id)))})
    return RowVsBackend(rows)
