"""Answers 404 only when neither the table nor the backend knows the id: a task id the application never issued but that ran (sent outside the app) gets 200 "done". Violates: "**404** for an id the application never issued;" Blind review.
"""
from celery.result import AsyncResult
from fastapi import HTTPException

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.web import api, app


@api.get("/jobs/{job_id}")
def job_status(job_id: str) -> dict:
    job = jobs.get(job_id)
    result = AsyncResult(job_id, app=app)
    if job is None:
        if result.state == "PENDING":
            raise HTTPException(status_code=404, detail="unknown job")
        status = "done" if result.successful() else result.state.lower()
        return {"id": job_id, "status": status, "progress": None, "total": None,
                "result": result.result if result.successful() else None, "expired": False}
    expired = job["state"] == "done" and result.state == "PENDING"
    return {"id": job_id, "status": job["state"], "progress": job["progress"], "total": job["total"],
            "result": job["result"], "expired": expired}
