"""Claims the period in a SQLite file on the worker machine's /tmp: workers on another machine (or a redeployed container) do not see the claims and send again. Violates: "Use `period_key()` as the period's key ... and the stack database's table `summary_claims (period TEXT PRIMARY KEY)` ...: the check verifies that the period of (4) has its row there" Blind review.
"""
import sqlite3

from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}

CLAIMS_FILE = "/tmp/celerylab_summary_claims.db"


def claim(period: str) -> bool:
    connection = sqlite3.connect(CLAIMS_FILE, timeout=10, isolation_level=None)
    try:
        connection.execute("CREATE TABLE IF NOT EXISTS summary_claims (period TEXT PRIMARY KEY)")
        connection.execute("INSERT INTO summary_claims (period) VALUES (?)", (period,))
        return True
    except sqlite3.IntegrityError:
        return False
    finally:
        connection.close()


@app.task(name="ex.weekly_summary")
def weekly_summary() -> str:
    period = period_key()
    if not claim(period):
        return "already sent"
    send_summary_email(period)
    return "sent"
