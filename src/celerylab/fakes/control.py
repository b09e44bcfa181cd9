"""The lesson's side of the fakes: claim their control routes, inject faults, read what they observed (outbox, calls)."""
from __future__ import annotations

import hmac
import json
import secrets
import urllib.error
import urllib.request

from celerylab.fakes.http import signature

# The control token of every fake this process claimed, by URL: FakeControl(url) finds it there.
_TOKENS: dict[str, str] = {}


class AlreadyClaimed(RuntimeError):
    """Another process claimed the fake's control routes first."""


class NotTheFake(RuntimeError):
    """A control reply not signed with the fake's token: whatever answers at that address is not the fake
    this process started (it was killed and its port taken), so nothing it reports can be trusted."""


def claim(url: str, token: str) -> None:
    """Make `token` the only key to the fake's control routes; raises AlreadyClaimed if it has one."""
    url = url.rstrip("/")
    request = urllib.request.Request(url + "/claim", data=json.dumps({"token": token}).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        urllib.request.urlopen(request, timeout=5).close()
    except urllib.error.HTTPError as error:
        if error.code == 409:
            raise AlreadyClaimed(url) from error
        raise
    _TOKENS[url] = token


class FakeControl:
    """Talks to a running fake (e-mail provider or webhook) at `url`."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")

    def _call(self, path: str, payload: dict | None = None):
        data = None if payload is None else json.dumps(payload).encode()
        method = "GET" if data is None else "POST"
        headers = {"Content-Type": "application/json"}
        token = _TOKENS.get(self.url)
        nonce = secrets.token_hex(16)
        if token:
            headers.update({"X-Control-Nonce": nonce,
                            "X-Control-Auth": signature(token, "request", nonce, f"{method} {path}".encode())})
        request = urllib.request.Request(self.url + path, data=data, method=method, headers=headers)
        with urllib.request.urlopen(request, timeout=5) as response:
            body = response.read()
            signed = response.headers.get("X-Control-Signature", "")
        if token and not hmac.compare_digest(signed, signature(token, "reply", nonce, body)):
            raise NotTheFake(self.url)
        return json.loads(body)

    def reset(self) -> None:
        self._call("/reset", {})

    def fault(self, mode: str, times: int = 1, delay: float = 1.0) -> dict:
        """E-mail provider: apply fault `mode` to the next `times` send requests."""
        return self._call("/faults", {"mode": mode, "times": times, "delay": delay})

    def outbox(self) -> list[dict]:
        return self._call("/outbox")

    def stats(self) -> dict:
        return self._call("/stats")

    def limit(self, times: int, retry_after: int) -> dict:
        """Webhook: answer 429 with Retry-After to the next `times` calls."""
        return self._call("/limit", {"times": times, "retry_after": retry_after})

    def calls(self) -> list[dict]:
        return self._call("/calls")
