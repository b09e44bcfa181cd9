"""Flags expired whenever the backend says PENDING and the row is not "queued": a running job that stores no backend state (welcome, bulk: no PROGRESS, no STARTED) reads "expired": true. Violates: "Exercise 1 — a status that tells expired, unknown, queued, running and done apart" Blind review.
"""
from celery.result import AsyncResult
from fastapi import HTTPException

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.web import api, app


@api.get("/jobs/{job_id}")
def job_status(job_id: str) -> dict:
    job = jobs.get(job_id)
    if job is None:
        raise HTTPException(status_code=404, detail="unknown job")
    result = AsyncResult(job_id, app=app)
    expired = result.state == "PENDING" and job["state"] != "queued"
    return {"id": job_id, "status": job["state"], "progress": job["progress"], "total": job["total"],
            "result": job["result"], "expired": expired}
