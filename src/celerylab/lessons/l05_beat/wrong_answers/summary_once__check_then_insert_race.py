"""Looks in summary_claims first and only records the claim after sending: two copies running at the same time both see no claim and both send. Violates: "two copies of the same period sent together, which run **at the same time** in two worker processes (the e-mail provider takes 0.5 s), also end in exactly one e-mail.". Blind review."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    connection = connect()
    already = execute(connection, "SELECT 1 FROM summary_claims WHERE period = ?", (period,)).fetchone()
    if already:
        return
    send_summary_email(period)
    execute(connection, "INSERT OR IGNORE INTO summary_claims (period) VALUES (?)", (period,))
