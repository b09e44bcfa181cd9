"""Catches SoftTimeLimitExceeded and keeps writing to the end of the current 15-row batch (up to ~0.75 s more), then cleans up and re-raises: the export goes on past the soft limit. Violates: "a 100-row export runs until the **soft** limit and ends there" Blind review.
The check used to bound only how early the export ended, not how late.
"""
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
    fd, tmp = tempfile.mkstemp(dir=os.path.dirname(os.path.abspath(path)), prefix=".ex-export-")
    try:
        with os.fdopen(fd, "w") as file:
            cut = None
            for i in range(rows):
                try:
                    write_row(file, i)
                except ValueError:
                    continue
                except SoftTimeLimitExceeded as exc:
                    cut = exc  # finish a last batch of rows before stopping
                if cut is not None and i % 15 == 14:
                    raise cut
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise
    record(path, "end")
    return path
