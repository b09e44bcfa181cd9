"""Derives "running" from progress ≥ 1 instead of the row's state: a running job that reports no progress (a welcome e-mail, a bulk send) reads "queued". Violates: "Exercise 1 — a status that tells expired, unknown, queued, running and done apart" Blind review.
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
    if job["state"] in ("queued", "running"):
        status = "running" if (job["progress"] or 0) >= 1 else "queued"
    else:
        status = job["state"]
    expired = job["state"] == "done" and AsyncResult(job_id, app=app).state == "PENDING"
    return {"id": job_id, "status": status, "progress": job["progress"], "total": job["total"],
            "result": job["result"], "expired": expired}
