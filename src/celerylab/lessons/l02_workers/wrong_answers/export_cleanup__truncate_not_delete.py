"""At the soft limit it empties the file instead of deleting it: an empty export file is left behind. Violates: "2. no partial file is left in the export's folder, under any name;" Blind review.
"""
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
    with open(path, "w") as file:
        try:
            for i in range(rows):
                try:
                    write_row(file, i)
                except ValueError:
                    continue
        except SoftTimeLimitExceeded:
            file.seek(0)
            file.truncate()  # no partial data left
            raise
    record(path, "end")
    return path
