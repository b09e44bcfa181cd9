"""Removes the file in a finally: the cut export is cleaned, but so is every finished one. Violates: requirement 4, "a short export (5 rows) still ends in SUCCESS, with its file in place"."""
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
    finally:
        if os.path.exists(path):
            os.remove(path)
    record(path, "end")
    return path
