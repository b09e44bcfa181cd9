"""Writes to path + ".part" and renames at the end, re-raising the soft limit, but never removes the .part file, so the partial export is left on disk under another name. Violates: "2. no partial file is left in the export's folder, under any name;" Blind review.

The final path never exists after a cut (an atomic rename only happens on success), so a check
that looks at `path` alone is satisfied; the half-written file stays next to it.
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
    partial = path + ".part"
    with open(partial, "w") as file:
        for i in range(rows):
            try:
                write_row(file, i)
            except ValueError:
                continue
    os.replace(partial, path)  # atomic: readers never see a half-written export
    record(path, "end")
    return path
