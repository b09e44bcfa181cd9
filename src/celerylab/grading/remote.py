"""Sending grading jobs to Celery workers on other machines and collecting their results as they finish."""
from __future__ import annotations

import os
import time

from celerylab.stack import appconfig

POLL_SECONDS = 0.2


def run_remote(todo: list, broker_url: str):
    """Yield (prepared, result, failure) for each job, in the order the workers finish them."""
    from celerylab.grading.celery_app import TASK, app

    appconfig.rebind(app, broker_url, os.environ.get(appconfig.NAMESPACE_ENV, ""))
    pending = {}
    for prepared in todo:
        job = prepared.job
        budget = job["notebook_timeout"] + 60 + job["check_timeout"] * (len(job["exercises"]) + 1) * 2
        pending[app.send_task(TASK, (job,)).id] = (prepared, time.monotonic() + budget * max(1, len(todo)))
    results = {task_id: app.AsyncResult(task_id) for task_id in pending}
    while pending:
        for task_id in list(pending):
            prepared, deadline = pending[task_id]
            result = results[task_id]
            if result.ready():
                del pending[task_id]
                if result.successful():
                    yield prepared, result.result, None
                else:
                    yield prepared, None, f"{type(result.result).__name__}: {result.result}"
            elif time.monotonic() > deadline:
                del pending[task_id]
                yield prepared, None, "timeout waiting for a grading worker"
        if pending:
            time.sleep(POLL_SECONDS)  # polling the result backend: the condition is each result's state
