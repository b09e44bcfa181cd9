"""A marker file in the worker's temp folder (one machine), with the row written too so the table looks right. Violates: "a file or an expiring key kept on one machine is not seen by a worker on another machine (or for the whole week)." Blind review.
"""
import os, tempfile
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    path = os.path.join(tempfile.gettempdir(), f"summary-{period}.sent")
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    send_summary_email(period)
    execute(connect(), "INSERT INTO summary_claims (period) VALUES (?) ON CONFLICT DO NOTHING", (period,))
