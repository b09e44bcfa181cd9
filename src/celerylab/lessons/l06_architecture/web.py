"""The producer: the notes' FastAPI app, which enqueues the welcome e-mail and the report and answers their status."""
from __future__ import annotations

from celery.result import AsyncResult
from fastapi import FastAPI
from pydantic import BaseModel

from celerylab.lessons.l06_architecture.tasks import app, build_pdf, export_grades, send_password_reset, send_welcome

api = FastAPI(title="celerylab l06 school")


class NewUser(BaseModel):
    name: str
    email: str


class ReportRequest(BaseModel):
    student_ids: list[int]
    period: str
    step: float = 0.5


@api.post("/users/register", status_code=201)
def register(user: NewUser) -> dict:
    task = send_welcome.delay(user.email, user.name)
    return {"task_id": task.id}


@api.post("/reports")
def request_report(request: ReportRequest) -> dict:
    task = build_pdf.delay(request.student_ids, request.period, request.step)
    return {"task_id": task.id}


class ResetRequest(BaseModel):
    email: str


class ExportRequest(BaseModel):
    period: str
    seconds: float = 2.0


@api.post("/users/password-reset", status_code=202)
def password_reset(request: ResetRequest) -> dict:
    return {"task_id": send_password_reset.delay(request.email).id}


@api.post("/grades/export", status_code=202)
def grades_export(request: ExportRequest) -> dict:
    return {"task_id": export_grades.delay(request.period, request.seconds).id}


@api.get("/tasks/{task_id}")
def task_status(task_id: str) -> dict:
    result = AsyncResult(task_id, app=app)
    answer = {"id": task_id, "status": result.status}
    if result.status == "SUCCESS":
        answer["result"] = result.result
    elif result.status == "FAILURE":
        answer["error"] = repr(result.result)
    return answer
