"""Writes the export to a temporary file, then at the end deletes the previous export and moves the new one there in two steps (os.remove, then a copy): between them the path holds no export, or a partial one if the time limit lands during the copy. Violates: "the new file replaces **in one step** the complete export already at its path (the check puts one there first): the new file takes the old one's place all at once (a rename onto it, like `os.replace`); the final path is never opened for writing, truncated, deleted nor created anew" Blind review.
"""
import os
import shutil
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
    part = path + ".part"
    try:
        with open(part, "w") as file:
            for i in range(rows):
                try:
                    write_row(file, i)
                except ValueError:
                    continue
        if os.path.exists(path):
            os.remove(path)  # the previous export is gone from here on
        shutil.copyfile(part, path)
    finally:
        if os.path.exists(part):
            os.remove(part)
    record(path, "end")
    return path
