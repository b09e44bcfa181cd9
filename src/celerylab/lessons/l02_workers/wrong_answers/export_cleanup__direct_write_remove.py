"""Writes straight into the final path and deletes it when the soft limit hits: a re-export cut at its limit destroys the previous complete export that was at that path. Violates: "and the complete export already at the same path (the check puts one there first) is still there, whole;" Blind review.
Before the statement said so, this was the course's own solution; it now writes to path + ".part" and renames at the end.
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
        if os.path.exists(path):
            os.remove(path)
        raise
    record(path, "end")
    return path
