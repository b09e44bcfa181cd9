"""Records the claim but ignores the duplicate-key error and sends anyway, so the claim never stops a second copy. Violates: "every complete period that got an e-mail got **exactly one** (at least two such periods)". Blind review."""
from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    try:
        execute(connect(), "INSERT INTO summary_claims (period) VALUES (?)", (period,))
    except Exception:
        pass  # already claimed: fine, the row is there
    send_summary_email(period)
