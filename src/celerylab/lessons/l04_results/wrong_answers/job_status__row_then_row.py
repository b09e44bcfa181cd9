"""Reads the row twice, the status from the first read and the result and progress from a second one, so a job that finishes between the two reads is answered "queued" (or "running") with the done result, a state it never had. Violates: "an answer that describes a state the job really had, also when it finishes while the route is answering: `"queued"` or `"running"` with no `"result"`, or `"done"` with the result — status, result and progress all from that one state —, always with `"expired": false` (the backend still has the result);". Blind review.
"""
from celery.result import AsyncResult
from fastapi import HTTPException

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.web import api, app


@api.get("/jobs/{job_id}")
def job_status(job_id: str) -> dict:
    first = jobs.get(job_id)
    if first is None:
        raise HTTPException(status_code=404, detail="unknown job")
    status = first["state"]
    expired = status == "done" and AsyncResult(job_id, app=app).state == "PENDING"
    details = jobs.get(job_id) or first
    return {"id": job_id, "status": status, "progress": details["progress"], "total": details["total"],
            "result": details["result"], "expired": expired}
