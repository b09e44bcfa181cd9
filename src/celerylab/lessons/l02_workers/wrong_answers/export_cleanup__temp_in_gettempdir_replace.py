"""Makes the partial file with mkstemp() in the worker's temporary folder and os.replace()s it onto the final path: where that folder is on another file system than the export (a /tmp of its own, a tmpfs), os.replace raises EXDEV and every export fails, the short one included. Violates: "a short export (5 rows) still ends in `SUCCESS`, and the new file replaces **in one step** the complete export already at its path (the check puts one there first)". Blind review."""
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
    fd, partial = tempfile.mkstemp(prefix="export-", suffix=".part")
    try:
        with os.fdopen(fd, "w") as file:
            for i in range(rows):
                try:
                    write_row(file, i)
                except ValueError:
                    continue
        os.replace(partial, path)
    except BaseException:
        try:
            os.unlink(partial)
        except FileNotFoundError:
            pass
        raise
    record(path, "end")
    return path
