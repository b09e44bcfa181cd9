"""Answers every id from the backend when the row is missing, as PENDING read as queued: an invented id gets 200. Violates: "404 for an id the application never issued"."""
from celery.result import AsyncResult
from fastapi import HTTPException

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.web import api, app


@api.get("/jobs/{job_id}")
def job_status(job_id: str) -> dict:
    job = jobs.get(job_id)
    if job is None:
        return {"id": job_id, "status": "queued", "progress": None, "total": None, "result": None,
                "error": None, "expired": False}
    forgotten = AsyncResult(job_id, app=app).state == "PENDING"
    return {"id": job_id, "status": job["state"], "progress": job["progress"], "total": job["total"],
            "result": job["result"], "error": job["error"],
            "expired": job["state"] in jobs.FINISHED and forgotten}
