"""Claims the period in summary_claims, sends, then deletes its claim: a copy of the same period sent once both have ended sends it again. Violates: "and also end in exactly one e-mail, even with a third copy of the period sent once both have ended" Blind review.
"""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    connection = connect()
    try:
        claimed = execute(connection, "INSERT INTO summary_claims (period) VALUES (?) ON CONFLICT DO NOTHING",
                          (period,)).rowcount
        if claimed == 1:
            send_summary_email(period)
            execute(connection, "DELETE FROM summary_claims WHERE period = ?", (period,))
    finally:
        connection.close()
