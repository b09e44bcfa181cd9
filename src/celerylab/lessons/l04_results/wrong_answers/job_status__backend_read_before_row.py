"""Reads the result backend before the job's row and decides from both, so a job that finishes between the two reads is answered "done" with "expired": true, a state it never had (the backend read PENDING because the task had not finished yet). Violates: "an answer that describes a state the job really had, also when it finishes while the route is answering: `"queued"` or `"running"` with no `"result"`, or `"done"` with the result — status, result and progress all from that one state —, always with `"expired": false` (the backend still has the result);". Blind review.

Every read on its own is right; only their order is not: the row written after
the backend read is newer than the backend's answer.
"""
from celery.result import AsyncResult
from fastapi import HTTPException

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.web import api, app


@api.get("/jobs/{job_id}")
def job_status(job_id: str) -> dict:
    backend_state = AsyncResult(job_id, app=app).state  # what Celery knows
    job = jobs.get(job_id)                              # what the application knows
    if job is None:
        raise HTTPException(status_code=404, detail="unknown job")
    expired = job["state"] in jobs.FINISHED and backend_state == "PENDING"
    return {"id": job_id, "status": job["state"], "progress": job["progress"], "total": job["total"],
            "result": job["result"], "error": job["error"], "expired": expired}
