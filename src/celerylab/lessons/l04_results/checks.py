"""Lesson 04's exercise checks: the learner's status endpoint over HTTP, and a report that stops when asked."""
from __future__ import annotations

import time
import uuid

from celerylab import polling
from celerylab.checks import CheckRun, exercise
from celerylab.lessons.l04_results import helpers, jobs
from celerylab.stack import WorkerSpec

WELCOME = {"status": "sent", "to": "bia@example.com"}


def answer(http, job_id: str) -> tuple[int, dict]:
    """(HTTP status, JSON body or {}) of GET /jobs/{id}; a body that is not JSON reads as {}."""
    response = http.get(f"/jobs/{job_id}")
    try:
        body = response.json()
    except ValueError:
        body = {}
    return response.status_code, body if isinstance(body, dict) else {}


def first(http, job_id: str, wanted, timeout: float) -> dict:
    """The first body for which `wanted(body)` holds, polling until `timeout`; else the last body seen."""
    return polling.read_until(lambda: answer(http, job_id)[1], wanted, timeout, step=0.05)


@exercise("l04.job_status")
def job_status(run: CheckRun) -> None:
    with run.stack(helpers.SPEC, http_apps={"shop": f"{run.module}:api"}) as stack:
        http = helpers.client(stack)
        for invented, hidden in ((str(uuid.uuid4()), False), ("not-a-job", True)):
            if not hidden or run.graded(1):
                run.expect("l04.check.unknown", 404, answer(http, invented)[0], hidden=hidden)
        bulk = http.post("/emails/bulk", params={"countdown": 3}, json=["a@example.com"]).json()["task_id"]
        queued = answer(http, bulk)[1]
        run.expect("l04.check.queued", ["queued", False], [queued.get("status"), queued.get("expired")])
        report = http.post("/reports", json={"student_ids": [1, 2, 3, 4, 5, 6], "period": "p",
                                             "step": 0.25}).json()["task_id"]
        body = first(http, report, lambda b: b.get("status") == "running" and (b.get("progress") or 0) >= 1, 4)
        run.expect("l04.check.running", ["running", True, False],
                   [body.get("status"), (body.get("progress") or 0) >= 1, body.get("expired")])
        welcome = http.post("/users", json={"name": "Bia", "email": WELCOME["to"]}).json()["task_id"]
        body = first(http, welcome, lambda b: b.get("status") == "done", 4)
        run.expect("l04.check.done", ["done", WELCOME, False],
                   [body.get("status"), body.get("result"), body.get("expired")])
        body = first(http, welcome, lambda b: b.get("expired") is True, helpers.RESULT_EXPIRES + 3)
        run.expect("l04.check.expired", ["done", WELCOME, True],
                   [body.get("status"), body.get("result"), body.get("expired")])


def send_report(stack, students: int, step: float) -> str:
    """Enqueue ex.report the way the shop does: the row first, then the message with the row's id."""
    job_id = str(uuid.uuid4())
    connection = stack.db()
    try:
        jobs.create(job_id, "admin", "ex.report", connection)
    finally:
        connection.close()
    stack.app.send_task("ex.report", (list(range(1, students + 1)), step), task_id=job_id)
    return job_id


def finished_row(stack, job_id: str, timeout: float) -> dict:
    """The job's row once its state is final (or as it is when `timeout` ends)."""
    return helpers.until(lambda: (lambda j: j if j["state"] in jobs.FINISHED else None)(helpers.row(stack, job_id)),
                         timeout) or helpers.row(stack, job_id)


def cancel_while_running(run: CheckRun, stack, http, students: int, step: float, at: int, hidden: bool) -> bool:
    """Cancel a report at page `at`, then run a short one on the same pool: the pool's pids before the first and
    after the second tell whether a process died (a process killed by a signal is gone once the pool has run the
    next task, whenever the kill landed)."""
    worker = stack.workers[0]
    before = worker.wait_pool_ready()
    job_id = send_report(stack, students, step)
    helpers.until(lambda: (helpers.row(stack, job_id)["progress"] or 0) >= at, 5)
    asked = time.monotonic()
    http.post(f"/jobs/{job_id}/cancel")
    finished_row(stack, job_id, students * step + 3)
    took = time.monotonic() - asked
    stack.app.AsyncResult(job_id).get(timeout=students * step + 3, propagate=False)  # the task itself has ended
    job = helpers.row(stack, job_id)
    after_next = finished_row(stack, send_report(stack, 2, 0.05), 10)
    return (run.expect("l04.check.cancelled_state", "cancelled", job["state"], hidden=hidden)
            & run.expect("l04.check.cancelled_fast", True, took <= 1.5, hidden=hidden)
            & run.expect("l04.check.cancelled_early", True, (job["progress"] or 0) < students, hidden=hidden)
            & run.expect("l04.check.same_process", True,
                         after_next["state"] == "done" and worker.wait_pool_ready() == before, hidden=hidden))


@exercise("l04.cooperative_cancel")
def cooperative_cancel(run: CheckRun) -> None:
    """A report cancelled at page 2 of 10 (0.25 s each), one nobody cancels; hidden: page 1 of 8 and page 9 of 30
    (0.15 s and 0.05 s). The first failed case ends the check."""
    with run.stack(helpers.SPEC, workers=[WorkerSpec(pool="prefork", concurrency=1)]) as stack:
        http = helpers.client(stack)
        if not cancel_while_running(run, stack, http, students=10, step=0.25, at=2, hidden=False):
            return
        job = finished_row(stack, send_report(stack, 3, 0.1), 5)
        if not run.expect("l04.check.uncancelled", ["done", 3], [job["state"], job["progress"]]):
            return
        if run.graded(8):
            if cancel_while_running(run, stack, http, students=8, step=0.15, at=1, hidden=True):
                cancel_while_running(run, stack, http, students=30, step=0.05, at=9, hidden=True)
