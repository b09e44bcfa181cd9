"""Deletes the partial file at the soft limit but returns normally, so the cut export is reported as SUCCESS. Violates: "1. a 100-row export runs until the **soft** limit and ends there: state `FAILURE` with `SoftTimeLimitExceeded` (not `TimeLimitExceeded`), at least 0.9 s after its `start`;" Blind review.
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


@app.task(name="ex.export", soft_time_limit=1, time_limit=2)
def export(path: str, rows: int = 100) -> str:
    record(path, "start")
    try:
        with open(path, "w") as file:
            for i in range(rows):
                try:
                    write_row(file, i)
                except ValueError:
                    continue
    except SoftTimeLimitExceeded:
        os.remove(path)
        return ""  # nothing exported
    record(path, "end")
    return path
