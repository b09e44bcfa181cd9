"""Temp file beside the path, but cleans up with a glob of every *.tmp in the folder: removes another export's partial file. Violates: "no partial file of its own is left, under any name: neither in the export's folder (another export's partial file, which the check leaves there, stays) nor in the worker's temporary folder; and the complete export already at the same path (the check puts one there first) is still there, whole;" Blind review.
"""
import glob
import os
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
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w") as file:
            for i in range(rows):
                try:
                    write_row(file, i)
                except ValueError:
                    continue
    except SoftTimeLimitExceeded:
        for leftover in glob.glob(os.path.join(os.path.dirname(path) or ".", "*.tmp")):
            os.remove(leftover)
        raise
    os.replace(tmp, path)
    record(path, "end")
    return path
