"""Keeps the broad `except Exception: continue` (which swallows the real SoftTimeLimitExceeded) and instead times itself, raising its own SoftTimeLimitExceeded after 0.95 s: the check sees FAILURE with SoftTimeLimitExceeded after 0.9 s and no file, but the task never ran until the soft limit — a call with a longer soft_time_limit still stops at 0.95 s, and a slow row that lets the real limit land inside write_row is swallowed and the export runs on to the hard limit. Violates: "1. a 100-row export runs until the **soft** limit and ends there". Blind review."""
import os
import time

from celery.exceptions import SoftTimeLimitExceeded

from celerylab.lessons.l02_workers.runs import record
from celerylab.lessons.l02_workers.tasks import app

BUDGET = 0.95  # a hair under soft_time_limit=1


def write_row(file, i):
    if i % 7 == 3:
        raise ValueError(f"bad row {i}")
    file.write(f"row {i}\n")
    file.flush()
    time.sleep(0.05)


@app.task(name="ex.export", soft_time_limit=1, time_limit=2)
def export(path: str, rows: int = 100) -> str:
    record(path, "start")
    began = time.monotonic()
    with open(path, "w") as file:
        for i in range(rows):
            if time.monotonic() - began > BUDGET:
                file.close()
                os.remove(path)
                raise SoftTimeLimitExceeded()
            try:
                write_row(file, i)
            except Exception:
                continue
    record(path, "end")
    return path
