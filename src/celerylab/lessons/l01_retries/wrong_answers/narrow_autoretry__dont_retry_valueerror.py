"""Retries every exception except ValueError: a non-transient bug (TypeError, KeyError, a 5xx-unrelated crash) is still retried twice. Violates: "(g) a bug in the call — `to` comes as `bytes` (an old caller), which the client cannot encode (`TypeError`) — ends in `FAILURE` with no request and no retry: a bug is not transient, whichever exception it raises." Blind review.
"""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app


@app.task(name="ex.notify", autoretry_for=(Exception,), dont_autoretry_for=(ValueError,),
          default_retry_delay=0.2, max_retries=2)
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
