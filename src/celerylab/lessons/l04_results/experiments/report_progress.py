"""A live progress bar: a report's AsyncResult read every 50 ms while it runs, then its row."""
from dataclasses import dataclass

import httpx
from celery.result import AsyncResult

from celerylab.lessons.l04_results import helpers
from celerylab.stack import Stack


@dataclass
class ReportProgress:
    progress_seen: list[int]  # each different "current" read while the task said PROGRESS, in order
    final_state: str
    row: dict | None          # the job's row once it left queued/running


def report_progress(stack: Stack, http: httpx.Client, students: int = 8, show=None) -> ReportProgress:
    report_id = helpers.post_report(http, students=students)
    result = AsyncResult(report_id, app=stack.app)
    seen: list[int] = []

    def look() -> str:
        state, info = result.state, result.info  # two reads: by the second, the info may be the result already
        if state == "PROGRESS" and isinstance(info, dict) and "current" in info:
            if not seen or seen[-1] != info["current"]:
                seen.append(info["current"])
            if show:
                show(info["current"], info["total"], state)
        elif show and state in ("SUCCESS", "FAILURE"):
            show(students, students, state)
        return state

    state = helpers.read_until(look, lambda state: state in ("SUCCESS", "FAILURE"), timeout=10, step=0.05)
    job = helpers.wait_row_left(stack, report_id, ("queued", "running"))  # the row follows a moment later
    return ReportProgress(seen, state, job)
