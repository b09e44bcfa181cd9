"""Decides "expired" from a clock kept in the API process's memory (3 s after it first saw the job done), not from the backend: wrong after an API restart or if nobody polled. Violates: "the same e-mail, after the backend forgot the result (`result_expires=3`): still `"done"` with the same `"result"`, now with `"expired": true`." Blind review.
"""
import time

from fastapi import HTTPException

from celerylab.lessons.l04_results import jobs
from celerylab.lessons.l04_results.web import api, app

RESULT_EXPIRES = 3
FIRST_DONE: dict = {}


@api.get("/jobs/{job_id}")
def job_status(job_id: str) -> dict:
    job = jobs.get(job_id)
    if job is None:
        raise HTTPException(status_code=404, detail="unknown job")
    expired = False
    if job["state"] == "done":
        seen = FIRST_DONE.setdefault(job_id, time.time())
        expired = time.time() - seen > RESULT_EXPIRES
    return {"id": job_id, "status": job["state"], "progress": job["progress"], "total": job["total"],
            "result": job["result"], "expired": expired}
