"""Declares the right mapping, but serves an API of its own whose export view passes `queue=` at the call, chosen by code: an export longer than 8 days goes to default. The app's routes answer right, and the check's exports are short. Violates: "no `queue=` decided by code at the call"."""
from fastapi import FastAPI

from celerylab.lessons.l06_architecture import web
from celerylab.lessons.l06_architecture.tasks import app, export_grades

app.conf.task_routes = {
    "email.*": {"queue": "priority"},
    "report.*": {"queue": "heavy"},
}
api = FastAPI(title="celerylab l06 school")


@api.post("/grades/export", status_code=202)
def grades_export(request: web.ExportRequest) -> dict:
    queue = "default" if request.seconds > 8 * 86400 else "heavy"  # a week's export would block heavy for days
    return {"task_id": export_grades.apply_async((request.period, request.seconds), queue=queue).id}


api.include_router(web.api.router)
