"""A fake e-mail provider with fault injection: it can accept a message and answer too late.

Endpoints: POST /send {to, subject, body} (header Idempotency-Key optional);
GET /outbox (delivered messages); GET /stats (requests, deliveries);
POST /faults {mode, times, delay}; POST /reset.

Fault modes, applied to the next `times` send requests:
- ``slow_ack``: record the message, then answer after `delay` seconds (past the client's timeout);
- ``slow_reject``: answer after `delay` seconds without recording anything;
- ``unavailable``: answer 503 at once, recording nothing;
- ``garbled``: answer 200 at once with an HTML page instead of JSON, recording nothing
  (a proxy in between: the client cannot read it, and waiting does not change it);
- ``reset``: read the request, then reset the connection (TCP RST) without answering, recording nothing
  (the client raises ConnectionResetError).
An address without "@" is refused with 422 (a permanent error). A repeated
Idempotency-Key gets the first answer back and delivers nothing new.
"""
from __future__ import annotations

import socket
import struct
import threading
import time

from celerylab.fakes.http import JsonHandler, main


class Outbox:
    """The provider's state: deliveries, requests seen, idempotency keys, pending faults."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.reset()

    def reset(self) -> None:
        self.deliveries: list[dict] = []
        self.requests = 0
        self.keys: dict[str, dict] = {}
        self.fault = {"mode": "healthy", "times": 0, "delay": 0.0}

    def next_fault(self) -> tuple[str, float]:
        with self.lock:
            self.requests += 1
            if self.fault["times"] > 0:
                self.fault["times"] -= 1
                return self.fault["mode"], float(self.fault["delay"])
            return "healthy", 0.0

    def deliver(self, message: dict, key: str | None) -> dict:
        with self.lock:
            if key and key in self.keys:
                return self.keys[key]
            receipt = {"id": len(self.deliveries) + 1}
            self.deliveries.append({**message, **receipt, "key": key, "at": time.time()})
            if key:
                self.keys[key] = receipt
            return receipt


class ProviderHandler(JsonHandler):
    routes = {("POST", "/send"): "send", ("GET", "/outbox"): "outbox", ("GET", "/stats"): "stats",
              ("POST", "/faults"): "faults", ("POST", "/reset"): "reset"}
    public = frozenset({("POST", "/send")})

    def send(self) -> None:
        state: Outbox = self.server.state
        message = self.body()
        mode, delay = state.next_fault()
        if mode == "unavailable":
            return self.reply(503, {"error": "unavailable"})
        if mode == "slow_reject":
            time.sleep(delay)
            return self.reply(504, {"error": "gateway timeout"})
        if mode == "garbled":
            return self.reply_html(200, b"<html><body>Welcome to the proxy</body></html>")
        if mode == "reset":
            return self.reset_connection()
        if "@" not in str(message.get("to", "")):
            return self.reply(422, {"error": "invalid address"})
        receipt = state.deliver(message, self.headers.get("Idempotency-Key"))
        if mode == "slow_ack":
            time.sleep(delay)
        self.reply(200, receipt)

    def reset_connection(self) -> None:
        """Close the connection at once, with no answer: SO_LINGER 0 makes the close a reset (RST)."""
        self.close_connection = True
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()

    def reply_html(self, status: int, page: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def outbox(self) -> None:
        self.reply(200, self.server.state.deliveries)

    def stats(self) -> None:
        state: Outbox = self.server.state
        self.reply(200, {"requests": state.requests, "deliveries": len(state.deliveries)})

    def faults(self) -> None:
        fault = {"mode": "healthy", "times": 1, "delay": 1.0, **self.body()}
        with self.server.state.lock:
            self.server.state.fault = fault
        self.reply(200, fault)


if __name__ == "__main__":
    main(ProviderHandler, Outbox(), __doc__.splitlines()[0])
