"""Checks the inbox (`emails`) for the period before sending instead of claiming it atomically: the e-mail row is written only after the 0.5 s provider call, so concurrent copies both see nothing and both send. Violates: "two copies of the same period sent together, which run **at the same time** in two worker processes (the e-mail provider takes 0.5 s), also end in exactly one e-mail.". Blind review."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    connection = connect()
    sent = execute(connection, "SELECT COUNT(*) FROM emails WHERE period = ?", (period,)).fetchone()[0]
    if sent:
        return
    execute(connection, "INSERT OR IGNORE INTO summary_claims (period) VALUES (?)", (period,))
    send_summary_email(period)
