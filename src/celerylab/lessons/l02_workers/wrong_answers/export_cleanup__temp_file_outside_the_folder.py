"""Writes the export to a temporary file in the system's temp folder and moves it into place at the end; at the soft limit it only re-raises, so every cut export leaves its partial file behind in /tmp (the disk fills up run after run), while the export's own folder, the only place the check looks, stays clean: the partial file is left, just in another folder. Violates: "Exercise 3 — a long export that cleans up at its limit". Blind review."""
import os
import shutil
import tempfile
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
    descriptor, scratch = tempfile.mkstemp(prefix="export-", suffix=".csv")  # never in the export's folder
    try:
        with os.fdopen(descriptor, "w") as file:
            for i in range(rows):
                try:
                    write_row(file, i)
                except ValueError:
                    continue
    except SoftTimeLimitExceeded:
        raise  # nothing was written to `path`: nothing to clean up
    shutil.move(scratch, path)
    record(path, "end")
    return path
