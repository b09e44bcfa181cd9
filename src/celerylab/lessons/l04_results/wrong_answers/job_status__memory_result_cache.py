"""Keeps the result in a dict in the API process when it first sees SUCCESS instead of reading the job row: after expiry the result is lost if the API restarted or never polled in time. Violates: "still `"done"` with the same `"result"`, now with `"expired": true`." Blind review.
"""
from celery.result import AsyncResult
from fastapi import HTTPException

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.web import api, app

RESULTS: dict = {}


@api.get("/jobs/{job_id}")
def job_status(job_id: str) -> dict:
    job = jobs.get(job_id)
    if job is None:
        raise HTTPException(status_code=404, detail="unknown job")
    result = AsyncResult(job_id, app=app)
    if result.successful():
        RESULTS[job_id] = result.result
    expired = job["state"] == "done" and result.state == "PENDING"
    return {"id": job_id, "status": job["state"], "progress": job["progress"], "total": job["total"],
            "result": RESULTS.get(job_id), "expired": expired}
