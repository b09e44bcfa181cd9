"""Retries every Exception but a deny-list of the exceptions the statement names (ValueError, TypeError, FileNotFoundError, IsADirectoryError): any other bug (a footer under a file, unreadable, a link to itself) is retried. Violates: "(g) a bug in the call — `to` comes as `bytes` (an old caller), which the client cannot encode (`TypeError`) — or in the worker's setup — the footer file the client reads before sending (`$CELERYLAB_EMAIL_FOOTER`) is missing, a folder, not UTF-8, inside a file instead of a folder, or broken in any other way — ends in `FAILURE` with no request and no retry: a bug is not transient, whichever exception it raises." Blind review."""
from celerylab.fakes.clients import send_email
from celerylab.lessons.l01_retries.tasks import app

TRANSIENT = (Exception,)


@app.task(name="ex.notify", autoretry_for=TRANSIENT, dont_autoretry_for=(ValueError, TypeError, FileNotFoundError, IsADirectoryError),
          default_retry_delay=0.2, max_retries=2)
def notify(to: str) -> dict:
    return send_email(to, "Bem-vindo! / Welcome!")
