"""The lesson's side of the fakes: inject faults and read what they observed (outbox, calls)."""
from __future__ import annotations

import json
import urllib.request


class FakeControl:
    """Talks to a running fake (e-mail provider or webhook) at `url`."""

    def __init__(self, url: str):
        self.url = url.rstrip("/")

    def _call(self, path: str, payload: dict | None = None):
        data = None if payload is None else json.dumps(payload).encode()
        request = urllib.request.Request(self.url + path, data=data, method="GET" if data is None else "POST",
                                         headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=5) as response:
            return json.loads(response.read())

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
