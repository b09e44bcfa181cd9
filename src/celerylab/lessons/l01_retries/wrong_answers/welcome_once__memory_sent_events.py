"""Remembers delivered event_ids in a module-level set of the pool process, so the same event resent as a new task to another process, or after a restart, sends again. Violates: "(d) the same event sent again as a **new task** (another task id, the same `event_id`), later — after a deploy restarted the worker, minutes or days after the first sending —, delivers no other e-mail" Blind review.

Retries are covered by the task id as provider key; the new-task resend is caught by the set
only while it lands on the same child process that sent the first one (one child in the check).
(Blind assumption: the fake provider takes the key as `idempotency_key=`.)
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

SENT_EVENTS = set()


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=3)
def welcome(self, user_id: int, event_id: str) -> dict:
    if event_id in SENT_EVENTS:
        return {"status": "skipped", "event_id": event_id}
    result = send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=self.request.id)
    SENT_EVENTS.add(event_id)
    return result
