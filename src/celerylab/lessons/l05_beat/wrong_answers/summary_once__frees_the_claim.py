"""Claims the period in one INSERT, but deletes the claim once the e-mail is sent so that the table stays empty: the other Beat's copy, later in the same period, claims it again. Violates: "every complete period that got an e-mail got exactly one" and "exactly one e-mail, even with a third copy of the period sent once both have ended"."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    connection = connect()
    claimed = execute(connection, "INSERT INTO summary_claims (period) VALUES (?) "
                      "ON CONFLICT (period) DO NOTHING", (period,)).rowcount
    if claimed == 1:
        send_summary_email(period)
        execute(connection, "DELETE FROM summary_claims WHERE period = ?", (period,))
