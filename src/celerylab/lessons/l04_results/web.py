"""The shop's HTTP API (FastAPI): it enqueues jobs and answers GET /tasks/{id} from AsyncResult, as the notes do."""
from __future__ import annotations

from celery.result import AsyncResult
from fastapi import FastAPI
from pydantic import BaseModel

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.tasks import app, bulk, report, welcome

api = FastAPI(title="celerylab l04 shop")


class NewUser(BaseModel):
    name: str
    email: str


class ReportRequest(BaseModel):
    student_ids: list[int]
    period: str
    step: float = 0.25


@api.post("/users", status_code=201)
def register(user: NewUser) -> dict:
    return {"task_id": jobs.enqueue(welcome, user.email, (user.email, user.name))}


@api.post("/emails/bulk")
def bulk_send(recipients: list[str], countdown: float = 5) -> dict:
    return {"task_id": jobs.enqueue(bulk, "admin", (recipients, "news"), countdown=countdown)}


@api.post("/reports")
def make_report(request: ReportRequest) -> dict:
    return {"task_id": jobs.enqueue(report, "admin", (request.student_ids, request.period, request.step))}


@api.get("/tasks/{task_id}")
def task_status(task_id: str) -> dict:
    result = AsyncResult(task_id, app=app)
    answer = {"id": task_id, "status": result.status}
    if result.status == "PROGRESS":
        answer["progress"] = result.info
    elif result.status == "SUCCESS":
        answer["result"] = result.get()
    elif result.status == "FAILURE":
        answer["error"] = str(result.result)
    return answer


@api.delete("/tasks/{task_id}")
def cancel(task_id: str, terminate: bool = False) -> dict:
    app.control.revoke(task_id, terminate=terminate)
    return {"revoked": task_id, "terminate": terminate}


@api.post("/jobs/{job_id}/cancel")
def request_cancel(job_id: str) -> dict:
    """Cooperative cancellation: flag the row (the task stops at its next step); a queued job is revoked."""
    jobs.request_cancel(job_id)
    app.control.revoke(job_id)
    return {"cancel_requested": job_id}
