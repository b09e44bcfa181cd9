"""Loaded by the worker of lesson 04's cancel check (`celery worker -I`), for the report a request file names
(`cancel_at`, holding `<job id> <page>`): when the report writes that page's progress, its row is flagged for
cancelling right after that write, in the same process, before the task goes on (page 0: never). The request then
arrives on that page by the statement's own definition (after the look that began it, as its progress is written),
at an exact point of the run instead of at a time a check polling from outside lands at, late on a loaded machine.
The moment the flag was set (the system's monotonic clock, which the check reads too) is written to
`cancel_at.flagged`; the first look that finds the flag (`jobs.cancel_requested` or `jobs.get`), as
`<page> <seconds>`: the page the report's last progress write named and how long after that write the look began
(the task's own moment of seeing the request, which no write to the database delays), to `cancel_at.look`."""
from __future__ import annotations

import os
import time

from celerylab import atomic
from celerylab.lessons.l04_results import jobs

REQUEST_ENV = "CELERYLAB_CANCEL_AT"
FLAGGED_SUFFIX = ".flagged"
LOOK_SUFFIX = ".look"
PROGRESS_WRITE = "UPDATE jobs SET progress = ?"  # how `jobs.progress` writes a page's progress
FLAG_READ = "SELECT"  # `jobs.cancel_requested` and `jobs.get`: both read `cancel_requested` as the row's last column
written: dict = {}  # job id -> (page, monotonic moment its progress write ended), in this process
fired: set = set()  # the (job id, page) flagged in this process: once each


def request_file() -> str | None:
    return os.environ.get(REQUEST_ENV)


def request() -> list[str]:
    """[job id, page] of the request file (empty without one)."""
    path = request_file()
    try:
        with open(path or "", encoding="utf-8") as named:
            return named.read().split()
    except OSError:
        return []


def patch(module=jobs) -> None:
    """Every read and write of the job table goes through the module's `_run` (looked up when called), however the
    answer imported `progress` or `cancel_requested`: wrap it, once."""
    original = module._run
    if getattr(original, "cancels", False):
        return

    def _run(sql: str, params: tuple, db=None):
        began = time.monotonic()
        answer = original(sql, params, db)
        if sql.startswith(PROGRESS_WRITE) and len(params) == 3:
            job_id, page = str(params[2]), params[0]
            wanted = request()
            if wanted[:1] == [job_id]:
                written[job_id] = (page, time.monotonic())
                if wanted == [job_id, str(page)] and page and (job_id, page) not in fired:
                    fired.add((job_id, page))
                    original("UPDATE jobs SET cancel_requested = 1 WHERE id = ?", (params[2],), None)
                    atomic.write_text(f"{request_file()}{FLAGGED_SUFFIX}", repr(time.monotonic()))
        elif (sql.startswith(FLAG_READ) and "cancel_requested" in sql and answer and answer[-1]
              and params and str(params[0]) in written):
            page, at = written.pop(str(params[0]))  # the first look that found it: later ones are not recorded
            atomic.write_text(f"{request_file()}{LOOK_SUFFIX}", f"{page} {began - at!r}")
        return answer

    _run.cancels = True  # type: ignore[attr-defined]
    module._run = _run


if request_file():  # a worker of the check: the check's own process, which imports this module too, patches nothing
    patch()
