"""Clients tasks use to call the fakes; failures surface as the exceptions real clients raise."""
from __future__ import annotations

import json
import os
import socket
import urllib.error
import urllib.request

EMAIL_URL_ENV = "CELERYLAB_EMAIL_URL"
WEBHOOK_URL_ENV = "CELERYLAB_WEBHOOK_URL"
EMAIL_FOOTER_ENV = "CELERYLAB_EMAIL_FOOTER"  # a UTF-8 text file whose text ends every e-mail, where the worker sets it
CLIENT_TIMEOUT = 0.3  # seconds the e-mail client waits for the provider's answer


class ProviderUnavailable(ConnectionError):
    """The provider answered 503: nothing was sent."""


class InvalidAddress(ValueError):
    """The provider refused the address (422): retrying cannot help."""


class RateLimited(Exception):
    """The webhook answered 429; ``retry_after`` is the delay it asked for, in seconds."""

    def __init__(self, retry_after: int):
        super().__init__(f"429 Too Many Requests (Retry-After: {retry_after})")
        self.retry_after = retry_after


def _post(url: str, payload: dict, headers: dict, timeout: float) -> tuple[int, dict, dict]:
    request = urllib.request.Request(url, data=json.dumps(payload).encode(), method="POST",
                                     headers={"Content-Type": "application/json", **headers})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, json.loads(response.read() or b"{}"), dict(response.headers)
    except urllib.error.HTTPError as error:
        return error.code, json.loads(error.read() or b"{}"), dict(error.headers)
    except urllib.error.URLError as error:
        if isinstance(error.reason, (socket.timeout, TimeoutError)):
            raise TimeoutError(f"no answer from {url} within {timeout}s") from error
        raise ConnectionError(str(error.reason)) from error
    except (socket.timeout, TimeoutError) as error:
        raise TimeoutError(f"no answer from {url} within {timeout}s") from error


def send_email(to: str, subject: str, body: str = "", *, idempotency_key: str | None = None,
               timeout: float = CLIENT_TIMEOUT) -> dict:
    """Send one e-mail through the fake provider; returns its receipt ``{"id": n}``. Where $CELERYLAB_EMAIL_FOOTER
    names a file, its text ends the body (read before anything is sent)."""
    headers = {"Idempotency-Key": idempotency_key} if idempotency_key else {}
    footer = os.environ.get(EMAIL_FOOTER_ENV)
    if footer:  # the worker's own file: missing, a folder or not UTF-8 is a bug of its setup, raised as Python does
        with open(footer, encoding="utf-8") as file:
            body += file.read()
    url = os.environ[EMAIL_URL_ENV] + "/send"
    status, payload, _ = _post(url, {"to": to, "subject": subject, "body": body}, headers, timeout)
    if status == 503:
        raise ProviderUnavailable("503 provider unavailable")
    if status == 504:
        raise TimeoutError("504 gateway timeout")
    if status == 422:
        raise InvalidAddress(f"invalid address: {to!r}")
    return payload


def call_webhook(payload: dict, timeout: float = 5.0) -> dict:
    """POST to the fake webhook; raises RateLimited on 429."""
    status, body, headers = _post(os.environ[WEBHOOK_URL_ENV] + "/hook", payload, {}, timeout)
    if status == 429:
        raise RateLimited(int(headers.get("Retry-After", 1)))
    return body
