"""Claims the period with SET NX on the broker's Redis, with no expiry, and writes the summary_claims row only after sending: once the broker's Redis has lost what it held, a later copy sends the period again. Violates: "Use `period_key()` as the period's key (the ISO week, or the check's short period) and the stack database's table `summary_claims (period TEXT PRIMARY KEY)`" Blind review.
"""
import redis

from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    r = redis.Redis.from_url(app.conf.broker_url)
    if not r.set(f"ex:summary:{period}", 1, nx=True):  # no expiry: survives "the rest of the week"
        return
    send_summary_email(period)
    connection = connect()
    try:
        execute(connection, "INSERT INTO summary_claims (period) VALUES (?) ON CONFLICT DO NOTHING", (period,))
    finally:
        connection.close()
