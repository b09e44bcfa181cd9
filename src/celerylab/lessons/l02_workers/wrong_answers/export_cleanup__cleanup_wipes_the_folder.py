"""At the soft limit, removes every "*.part" file in the export's folder, not only its own: an export running at the same time into the same folder loses its temporary file and fails at its final rename (or a half-written file of another job disappears), while one export at a time, as the check runs them, looks perfect. Violates: "4. a short export (5 rows) still ends in `SUCCESS`, with its file in place". Blind review."""
import glob
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
    try:
        with open(partial, "w") as file:
            for i in range(rows):
                try:
                    write_row(file, i)
                except ValueError:
                    continue
        os.replace(partial, path)
    except SoftTimeLimitExceeded:
        for leftover in glob.glob(os.path.join(os.path.dirname(path) or ".", "*.part")):  # no partial file, any name
            os.remove(leftover)
        raise
    record(path, "end")
    return path
