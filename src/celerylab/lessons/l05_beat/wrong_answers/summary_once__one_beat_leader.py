"""Avoids the fault instead of handling it: the first Beat to start claims a leader row and the other Beat empties its schedule, and the task itself stays non-idempotent. Violates: "both Beats published the summary (the defence cannot be "one Beat only")". Blind review."""
from celery.signals import beat_init

from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}


@beat_init.connect
def only_one_beat(sender=None, **_) -> None:
    try:
        execute(connect(), "INSERT INTO summary_claims (period) VALUES (?)", ("beat-leader",))
    except Exception:
        sender.scheduler.schedule.clear()  # another Beat leads: publish nothing


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    send_summary_email(period_key())
