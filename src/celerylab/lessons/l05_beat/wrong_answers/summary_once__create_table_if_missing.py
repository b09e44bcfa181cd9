"""Atomic claim, but each run first does CREATE TABLE IF NOT EXISTS summary_claims, so when the table is unavailable it makes a fresh one, claims there and sends; that claim is lost when the database comes back. Violates: "a copy that runs while the database fails (the table `summary_claims` cannot be written) and two more copies of the same period, sent together once it is back (one in each worker process), end in exactly one e-mail". Blind review.
"""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> str:
    period = period_key()
    connection = connect()
    try:
        execute(connection, "CREATE TABLE IF NOT EXISTS summary_claims (period TEXT PRIMARY KEY)")
        try:
            execute(connection, "INSERT INTO summary_claims (period) VALUES (?)", (period,))
        except Exception:
            if execute(connection, "SELECT 1 FROM summary_claims WHERE period = ?", (period,)).fetchone():
                return "already sent"
            raise
    finally:
        connection.close()
    send_summary_email(period)
    return "sent"
