"""Keys the provider correctly but swallows the timeout once retries run out, ending SUCCESS with possibly zero e-mails. Violates: "the timeout is real — it must be retried, not swallowed." Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import address, app

MAX_RETRIES = 3


@app.task(name="ex.welcome", bind=True, autoretry_for=(TimeoutError,), retry_backoff=1, retry_jitter=False,
          max_retries=MAX_RETRIES)
def welcome(self, user_id: int, event_id: str) -> dict:
    try:
        return send_email(address(user_id), "Bem-vindo! / Welcome!", idempotency_key=event_id)
    except TimeoutError:
        if self.request.retries >= MAX_RETRIES:
            # the provider probably got it anyway: do not alarm anyone
            return {"id": None, "assumed": True}
        raise
