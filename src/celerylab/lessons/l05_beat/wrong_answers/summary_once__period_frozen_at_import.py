"""Computes the period key once, when the module is imported, so every later run claims the worker's start-up period and no later period ever gets its e-mail. Violates: "every complete period that got an e-mail got **exactly one** (at least two such periods)". Blind review."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}

PERIOD = period_key()  # this week's key


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    cursor = execute(connect(), "INSERT OR IGNORE INTO summary_claims (period) VALUES (?)", (PERIOD,))
    if cursor.rowcount == 1:
        send_summary_email(PERIOD)
