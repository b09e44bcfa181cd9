"""Calls self.retry(..., throw=False) and returns, so each failed attempt is stored as SUCCESS (no RETRY state, no `retry:` log line) while the retry runs behind it. Violates: "Keep `max_retries=2`, and retry with Celery (the task goes through `RETRY`, one `retry:` line in the worker's log per retry, timeouts included), not in a loop inside the task." Blind review.

The request counts are right (1; 2; 3; 3 then the original exception once max_retries is past,
since retry() raises exc past the limit whatever `throw` says), but the intermediate states lie.
"""
from celerylab.fakes.clients import ProviderUnavailable, send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (TimeoutError, ProviderUnavailable)


@app.task(name="ex.notify", bind=True, default_retry_delay=0.2, max_retries=2)
def notify(self, to: str) -> dict:
    try:
        return send_email(to, "Bem-vindo! / Welcome!")
    except TRANSIENT as exc:
        # schedule the retry without polluting the logs with a traceback
        self.retry(exc=exc, throw=False)
        return {"status": "retry_scheduled", "retries": self.request.retries}
