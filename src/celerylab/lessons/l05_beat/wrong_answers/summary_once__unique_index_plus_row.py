"""No real claim: every copy sends, and a UNIQUE index the task adds on the inbox's emails(period) makes the provider's record of every e-mail after the first fail, so the inbox shows one e-mail for a period the provider sent two or three times (the period's row still goes to summary_claims). Violates: "6. the fake inbox (the `emails` table, which the provider writes) counts every e-mail sent: it is append-only, and the check verifies at the end that its guards are still in place.". Blind review.
"""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    connection = connect()
    try:
        execute(connection, "CREATE UNIQUE INDEX IF NOT EXISTS emails_one_per_period ON emails (period)")
        connection.commit()
    finally:
        connection.close()
    send_summary_email(period)  # a second copy's e-mail cannot be recorded twice
    connection = connect()
    try:
        execute(connection, "INSERT INTO summary_claims (period) VALUES (?) ON CONFLICT DO NOTHING", (period,))
        connection.commit()
    finally:
        connection.close()
