"""Cleans up and re-raises at the soft limit, but raises the soft limit to 1.5 s "to give the export more room": the cut still reads SoftTimeLimitExceeded, half a second later than the statement's limit. Violates: "5. the limits stay `soft_time_limit=1` and `time_limit=2` (the check reads the ones the worker registered for `ex.export`)."
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


@app.task(name="ex.export", soft_time_limit=1.5, time_limit=2)
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
        raise
    record(path, "end")
    return path
