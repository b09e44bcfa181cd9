"""Retries every Exception except the refused address (autoretry_for=(Exception,) with dont_autoretry_for), so any other permanent error, a bug included, is retried too. Violates: "(e) a reply the client cannot read (a proxy on the way returns an HTML page instead of JSON, and will return the same page again) ends in `FAILURE` after **1** request: only what is transient is retried." Blind review.

dont_autoretry_for is looked at first, so (a) ends after 1 request; (b), (c), (d) behave as
asked. What is not transient but is not InvalidAddress (a KeyError, a TypeError, another 4xx) is
retried twice and costs 3 requests.
"""
from celerylab.fakes.clients import InvalidAddress, send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (Exception,)
PERMANENT = (InvalidAddress,)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, dont_autoretry_for=PERMANENT, default_retry_delay=0.2,
          max_retries=2)
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
