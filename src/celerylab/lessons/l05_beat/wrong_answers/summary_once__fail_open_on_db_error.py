"""Treats only a duplicate-key error as "already sent" and sends anyway on any other database error (e.g. "database is locked" when two copies write at once), so simultaneous copies can both send. Violates: "5. a copy that runs while the database fails (the table `summary_claims` cannot be written) and another copy of the same period once it is back end in exactly one e-mail." Blind review.

"Better a duplicate than no summary": the exception is swallowed exactly
under the concurrency the claim is there for.

Blind review.
"""
import logging

from celerylab.appdb import connect, execute
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}

logger = logging.getLogger(__name__)


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    try:
        execute(connect(), "INSERT INTO summary_claims (period) VALUES (?)", (period,))
    except Exception as error:
        text = str(error).lower()
        if "unique" in text or "duplicate" in text:
            return  # another copy already claimed this period
        logger.warning("could not claim %s (%s); sending anyway", period, error)
    send_summary_email(period)
