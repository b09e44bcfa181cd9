"""Checks summary_claims with a SELECT and only then INSERTs (ON CONFLICT DO NOTHING, result ignored), so two copies that both read "no claim" in the same few milliseconds both send. Violates: "every complete period that got an e-mail got **exactly one**". Blind review."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    connection = connect()
    try:
        already = execute(connection, "SELECT 1 FROM summary_claims WHERE period = ?", (period,)).fetchone()
        if already:
            return
        # record the claim right away (the window between the SELECT and this line is tiny)
        execute(connection, "INSERT INTO summary_claims (period) VALUES (?) ON CONFLICT DO NOTHING", (period,))
    finally:
        connection.close()
    send_summary_email(period)
