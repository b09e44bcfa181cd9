"""Checks the table, sends, then records the claim, with a rate limit that keeps two copies from ever running together: the check-then-act race is only hidden, never closed. Violates: "two copies of the same period sent together, which run at the same time in two worker processes ... also end in exactly one e-mail"."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary", rate_limit="1/s")
def weekly_summary() -> None:
    period = period_key()
    connection = connect()
    if execute(connection, "SELECT 1 FROM summary_claims WHERE period = ?", (period,)).fetchone():
        return
    send_summary_email(period)
    execute(connection, "INSERT INTO summary_claims (period) VALUES (?) ON CONFLICT (period) DO NOTHING", (period,))
