"""Routes inside the API's own views with `queue=` at the call and leaves `task_routes` unchanged, so only this API routes correctly and every other producer (and the app's routes) still send both tasks to `default`. Violates: "Write the routing in `ex_routes.py`.". Blind review."""
from fastapi import FastAPI
from pydantic import BaseModel

from celerylab.lessons.l06_architecture.tasks import app, export_grades, send_password_reset
from celerylab.lessons.l06_architecture import web

api = FastAPI(title="celerylab l06 school (routed)")


class ResetRequest(BaseModel):
    email: str


class ExportRequest(BaseModel):
    period: str
    seconds: float = 2.0


@api.post("/users/password-reset", status_code=202)
def password_reset(request: ResetRequest) -> dict:
    return {"task_id": send_password_reset.apply_async((request.email,), queue="priority").id}


@api.post("/grades/export", status_code=202)
def grades_export(request: ExportRequest) -> dict:
    return {"task_id": export_grades.apply_async((request.period, request.seconds), queue="heavy").id}


# everything else as before
for route in web.api.routes:
    if getattr(route, "path", None) in ("/users/register", "/reports", "/tasks/{task_id}"):
        api.router.routes.append(route)
