"""Loaded by the worker of lesson 04's cancel check (`celery worker -I`): when a report writes the progress of the page
a request file names (`cancel_at`, holding `<job id> <page>`), the job's row is flagged for cancelling right after
that write, in the same process, before the task goes on: the request arrives on that page by the statement's own
definition (after the look that began it, as its progress is written), at an exact point of the run instead of at a
time a check that polls from outside lands at, late on a loaded machine. The moment the flag was set (the system's
monotonic clock, which the check reads too) is written to `cancel_at.flagged`."""
from __future__ import annotations

import os
import time

from celerylab import atomic
from celerylab.lessons.l04_results import jobs

REQUEST_ENV = "CELERYLAB_CANCEL_AT"
FLAGGED_SUFFIX = ".flagged"
PROGRESS_WRITE = "UPDATE jobs SET progress = ?"  # how `jobs.progress` writes a page's progress


def request_file() -> str | None:
    return os.environ.get(REQUEST_ENV)


def requested(job_id: object, page: object) -> bool:
    """Whether the request file names this job and page; the file is taken (removed) by the one write that fires."""
    path = request_file()
    if path is None:
        return False
    try:
        with open(path, encoding="utf-8") as named:
            wanted = named.read().split()
        if wanted != [str(job_id), str(page)]:
            return False
        os.unlink(path)
    except (FileNotFoundError, ValueError):  # no request asked, or another write took it first
        return False
    return True


def patch(module=jobs) -> None:
    """Every write of the job table goes through the module's `_run` (looked up when called), however the answer
    imported `progress`: wrap it, once."""
    original = module._run
    if getattr(original, "cancels", False):
        return

    def _run(sql: str, params: tuple, db=None):
        answer = original(sql, params, db)
        if sql.startswith(PROGRESS_WRITE) and len(params) == 3 and requested(params[2], params[0]):
            original("UPDATE jobs SET cancel_requested = 1 WHERE id = ?", (params[2],), None)
            atomic.write_text(f"{request_file()}{FLAGGED_SUFFIX}", repr(time.monotonic()))
        return answer

    _run.cancels = True  # type: ignore[attr-defined]
    module._run = _run


if request_file():  # a worker of the check: the check's own process, which imports this module too, patches nothing
    patch()
