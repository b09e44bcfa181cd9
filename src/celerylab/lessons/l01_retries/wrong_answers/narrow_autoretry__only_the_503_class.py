"""Retries only TimeoutError and the provider's own ProviderUnavailable (503), not ConnectionError: when the provider is down because its process is restarting (connection refused/reset, which the client raises as a plain ConnectionError) the task fails at once, a transient error treated as permanent; the check's "down" is a 503, which passes. Violates: "only what is transient is retried". Blind review."""
from celerylab.fakes.clients import ProviderUnavailable, send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (TimeoutError, ProviderUnavailable)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, default_retry_delay=0.2, max_retries=2)
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
