"""Avoids the cut by raising the limits to soft_time_limit=30 and time_limit=60, so the 100-row export finishes in SUCCESS instead of ending at the soft limit. Violates: "5. the limits stay `soft_time_limit=1` and `time_limit=2` (the check reads the ones the worker registered for `ex.export`)." Blind review.

The learner reads "the export is cut" as the bug. The swallowing `except Exception` stays, so at
any limit the soft one would still be eaten.
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


@app.task(name="ex.export", soft_time_limit=30, time_limit=60)
def export(path: str, rows: int = 100) -> str:
    record(path, "start")
    with open(path, "w") as file:
        for i in range(rows):
            try:
                write_row(file, i)
            except Exception:
                continue
    record(path, "end")
    return path
