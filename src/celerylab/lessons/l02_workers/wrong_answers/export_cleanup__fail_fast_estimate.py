"""Refuses up front any export whose rows x 0.05 s reach the soft limit, raising SoftTimeLimitExceeded before writing, so an export that would finish in time because its bad rows are skipped (e.g. 21 rows, 18 written, 0.9 s) fails. Violates: "1. a 100-row export runs until the **soft** limit and ends there: state `FAILURE` with `SoftTimeLimitExceeded` (not `TimeLimitExceeded`), at least 0.9 s after its `start`;" Blind review.

Tuned to the numbers in the statement: the 100-row export fails with SoftTimeLimitExceeded, no
file, no `end`; the 5-row one succeeds. But the estimate counts bad rows, which take no time, and
the partial file of a real cut is still not cleaned up.
"""
import os
import time

from celery.exceptions import SoftTimeLimitExceeded

from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app


def write_row(file, i):
    if i % 7 == 3:
        raise ValueError(f"bad row {i}")
    file.write(f"row {i}\n")
    file.flush()
    time.sleep(0.05)

SECONDS_PER_ROW = 0.05
SOFT_LIMIT = 1


@app.task(name="ex.export", soft_time_limit=SOFT_LIMIT, time_limit=2)
def export(path: str, rows: int = 100) -> str:
    record(path, "start")
    if rows * SECONDS_PER_ROW >= SOFT_LIMIT:
        # it cannot finish inside the soft limit: fail now instead of leaving half a file
        raise SoftTimeLimitExceeded(f"{rows} rows need {rows * SECONDS_PER_ROW:.2f} s")
    with open(path, "w") as file:
        for i in range(rows):
            try:
                write_row(file, i)
            except ValueError:
                continue
    record(path, "end")
    return path
