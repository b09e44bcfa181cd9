"""When summary_claims cannot be written it falls back to a per-process set and sends anyway, so the copy that runs after the database is back (in the other pool process) claims the period in the database and sends a second e-mail. Violates: "a copy that runs while the database fails (the table `summary_claims` cannot be written) and two more copies of the same period, sent together once it is back (one in each worker process), end in exactly one e-mail". Blind review."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}

_sent_while_db_down: set[str] = set()  # "better one e-mail than none": remember it here while the DB is away


def _claim(period: str) -> bool:
    connection = connect()
    try:
        cursor = execute(connection, "INSERT INTO summary_claims (period) VALUES (?) ON CONFLICT DO NOTHING", (period,))
        return cursor.rowcount == 1
    finally:
        connection.close()


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    if period in _sent_while_db_down:
        return
    try:
        claimed = _claim(period)
    except Exception:  # database down: do not let the managers go without their summary
        _sent_while_db_down.add(period)
        send_summary_email(period)
        return
    if claimed:
        send_summary_email(period)
