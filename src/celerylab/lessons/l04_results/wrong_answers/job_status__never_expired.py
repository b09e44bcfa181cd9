"""Answers from the row only and never asks the backend: expired is always false. Violates: "after the backend forgot the result ... now with expired: true"."""
from celery.result import AsyncResult
from fastapi import HTTPException

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.web import api, app


@api.get("/jobs/{job_id}")
def job_status(job_id: str) -> dict:
    job = jobs.get(job_id)
    if job is None:
        raise HTTPException(status_code=404, detail="unknown job")
    forgotten = AsyncResult(job_id, app=app).state == "PENDING"
    return {"id": job_id, "status": job["state"], "progress": job["progress"], "total": job["total"],
            "result": job["result"], "error": job["error"],
            "expired": False}
