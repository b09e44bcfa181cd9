"""Atomic claim, but when the claim cannot be written for another reason (database failing) and a SELECT finds no claim, it sends anyway ("better a summary than none"). Violates: "a copy that runs while the database fails (the table `summary_claims` cannot be written) and two more copies of the same period, sent together once it is back (one in each worker process), end in exactly one e-mail". Blind review.
"""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    connection = connect()
    try:
        execute(connection, "INSERT INTO summary_claims (period) VALUES (?)", (period,))
    except Exception:
        if execute(connection, "SELECT 1 FROM summary_claims WHERE period = ?", (period,)).fetchone():
            return
        # the database is having trouble: better a summary than none
    send_summary_email(period)
