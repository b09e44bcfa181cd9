"""Retries the right errors but returns a fake SUCCESS when the 2 retries are used up, so a provider down 3 times ends SUCCESS instead of FAILURE. Violates: "Keep `max_retries=2`. The hidden check changes how many times the provider is down." Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (TimeoutError, ConnectionError)


@app.task(name="ex.notify", bind=True, default_retry_delay=0.2, max_retries=2)
def notify(self, to: str) -> dict:
    try:
        return send_email(to, "Bem-vindo! / Welcome!")
    except TRANSIENT as exc:
        if self.request.retries >= self.max_retries:
            return {"queued": False, "error": str(exc)}
        raise self.retry(exc=exc)
