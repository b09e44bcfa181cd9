"""Keeps each report's progress in a file of the worker's temporary folder, keyed by label: on another machine the report starts over from part 0, and a later report with the same label is skipped altogether.

Violates: "the accepted cost of a crash is redoing the part that was running, not losing work nor redoing the report"

Blind review.
"""
import math
import os
import tempfile

from celerylab.lessons.l08_rabbitmq.tasks import app, crunch

PART = 0.4

# Cost: a report becomes many messages and finishes later; progress lives in a file on the worker's disk.


@app.task(name="ex.report", acks_late=True)
def report(label: str, seconds: float) -> None:
    folder = os.path.join(tempfile.gettempdir(), "ex_report_progress")
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, label)
    part = int(open(path).read()) if os.path.exists(path) else 0
    parts = max(1, math.ceil(seconds / PART))
    if part >= parts:
        return
    crunch(label, part, seconds / parts)
    with open(path, "w") as progress:
        progress.write(str(part + 1))
    report.apply_async((label, seconds))
