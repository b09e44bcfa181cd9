"""A fake rate-limited webhook: it answers 429 with Retry-After for the first N calls, then 200.

Endpoints: POST /hook (any JSON); GET /calls (arrival times and statuses);
POST /limit {times, retry_after}; POST /reset.
"""
from __future__ import annotations

import threading
import time

from celerylab.fakes.http import JsonHandler, main


class Limiter:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self.calls: list[dict] = []
        self.limited = 0
        self.retry_after = 1

    def arrive(self) -> tuple[int, int]:
        with self.lock:
            status = 429 if self.limited > 0 else 200
            self.limited = max(0, self.limited - 1)
            self.calls.append({"at": time.time(), "status": status})
            return status, self.retry_after


class WebhookHandler(JsonHandler):
    routes = {("POST", "/hook"): "hook", ("GET", "/calls"): "calls",
              ("POST", "/limit"): "limit", ("POST", "/reset"): "reset"}
    public = frozenset({("POST", "/hook")})

    def hook(self) -> None:
        self.body()
        status, retry_after = self.server.state.arrive()
        headers = {"Retry-After": retry_after} if status == 429 else {}
        self.reply(status, {"status": status}, headers)

    def calls(self) -> None:
        self.reply(200, self.server.state.calls)

    def limit(self) -> None:
        body = self.body()
        with self.server.state.lock:
            self.server.state.limited = int(body.get("times", 1))
            self.server.state.retry_after = int(body.get("retry_after", 1))
        self.reply(200, body)


if __name__ == "__main__":
    main(WebhookHandler, Limiter(), __doc__.splitlines()[0])
