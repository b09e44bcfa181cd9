"""Grader attack: no claim before sending; after sending, deletes the other rows of the period from the `emails` table (the fake inbox), so duplicates "disappear". Violates: "the fake inbox (the `emails` table, which the provider writes) counts every e-mail sent: it is append-only, and the check verifies at the end that its guards are still in place." Blind review.
"""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    c = connect()
    if execute(c, "SELECT 1 FROM emails WHERE period = ?", (period,)).fetchone():
        return
    send_summary_email(period)
    execute(c, "DELETE FROM emails WHERE period = ? AND sent_at > (SELECT MIN(sent_at) FROM emails WHERE period = ?)",
            (period, period))
    try:
        execute(c, "INSERT INTO summary_claims (period) VALUES (?) ON CONFLICT DO NOTHING", (period,))
    except Exception:
        pass
