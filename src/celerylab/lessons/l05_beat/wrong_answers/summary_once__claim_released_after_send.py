"""Uses the claim as a lock held only while sending and deletes it afterwards: copies that overlap are stopped, but the other Beat's copy arriving after the send finished sends the same period again. Violates: "every complete period that got an e-mail got **exactly one** (at least two such periods)". Blind review."""
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
        return  # someone is sending right now
    try:
        send_summary_email(period)
    finally:
        # free the period so the table does not keep growing
        execute(connection, "DELETE FROM summary_claims WHERE period = ?", (period,))
