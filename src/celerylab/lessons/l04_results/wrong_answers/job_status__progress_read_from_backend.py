"""Answers from the row but takes "progress" from the backend's PROGRESS meta: while the report writes a page every 0.25 s the key is renewed and the check sees progress ≥ 1, but a report whose pages take longer than result_expires (3 s here, a day in production only postpones it) loses its PROGRESS key between two pages and reads "progress": null while running, and every finished report reads null too. Violates: "`"status": "running"` with `"progress"` ≥ 1 and `"expired": false` while a report runs". Blind review."""
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
    info = result.info if result.state == "PROGRESS" and isinstance(result.info, dict) else {}
    return {"id": job_id, "status": job["state"], "progress": info.get("current"), "total": info.get("total"),
            "result": job["result"], "expired": job["state"] == "done" and result.state == "PENDING"}
