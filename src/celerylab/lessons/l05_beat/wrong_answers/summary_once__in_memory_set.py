"""Remembers the periods already sent in a set inside the worker process: each prefork child (and each worker) has its own set, so copies landing in different processes each send. Violates: "Use `period_key()` as the period's key (the ISO week, or the check's short period) and the stack database's table `summary_claims (period TEXT PRIMARY KEY)`". Blind review."""
from celerylab.lessons.l05_beat.tasks import app, period_key, period_seconds, send_summary_email

app.conf.beat_schedule = {"weekly-summary": {"task": "ex.weekly_summary", "schedule": period_seconds()}}

_SENT: set[str] = set()


@app.task(name="ex.weekly_summary")
def weekly_summary() -> None:
    period = period_key()
    if period in _SENT:
        return
    _SENT.add(period)
    send_summary_email(period)
