"""Atomic claim in summary_claims, but claims older than 1.5 s are swept so that the table stays small: a copy of the period sent later in the week sends it again. Violates: "the check verifies that the period of (4) still has its row there at the end, 5 s or more after its copies ended, with the worker still running". Blind review.
"""
import threading
import time
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


def _sweep(period: str) -> None:
    time.sleep(1.5)
    try:
        execute(connect(), "DELETE FROM summary_claims WHERE period = ?", (period,))
    except Exception:
        pass


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    connection = connect()
    try:
        execute(connection, "INSERT INTO summary_claims (period) VALUES (?)", (period,))
    except Exception:
        if execute(connection, "SELECT 1 FROM summary_claims WHERE period = ?", (period,)).fetchone():
            return
        raise
    send_summary_email(period)
    threading.Thread(target=_sweep, args=(period,), daemon=True).start()
