"""A tiny JSON-over-HTTP server base for the fakes: threaded, quiet, prints ``listening on HOST:PORT``.

A fake serves two kinds of routes: its ``public`` ones, which the tasks call (``/send``, ``/hook``), and
control routes (faults, reset, what it observed), which only the process that claimed the fake may call.
The first ``POST /claim`` sets the control token; until then (a fake started by hand) control is open.
Once claimed, the token never travels again: a control request carries a fresh nonce and its HMAC, and
the reply is signed over that nonce, so a process that took the fake's port cannot answer for it
(celerylab.fakes.control checks the signature before trusting a reply).
"""
from __future__ import annotations

import argparse
import ctypes
import hashlib
import hmac
import json
import signal
import sys
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class JsonHandler(BaseHTTPRequestHandler):
    """Routes ``(METHOD, path)`` to methods named in ``routes``; bodies and replies are JSON."""

    routes: dict[tuple[str, str], str] = {}
    public: frozenset[tuple[str, str]] = frozenset()  # the service's own routes: open to the tasks
    protocol_version = "HTTP/1.1"

    def log_message(self, *args) -> None:  # keep the process log for facts, not access lines
        pass

    def body(self) -> dict:
        length = int(self.headers.get("Content-Length") or 0)
        return json.loads(self.rfile.read(length) or b"{}") if length else {}

    def reply(self, status: int, payload: object, headers: dict | None = None) -> None:
        data = json.dumps(payload).encode()
        headers = dict(headers or {})
        token, nonce = self.server.control_token, self.headers.get("X-Control-Nonce")
        if token and nonce:
            headers["X-Control-Signature"] = signature(token, "reply", nonce, data)
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        for name, value in headers.items():
            self.send_header(name, str(value))
        self.end_headers()
        try:
            self.wfile.write(data)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up (its timeout): the fault the lesson is about

    def _route(self, method: str) -> None:
        key = (method, self.path.split("?")[0])
        if key == ("POST", "/claim"):
            self.claim()
            return
        name = self.routes.get(key)
        if name is None:
            self.reply(404, {"error": "not found"})
        elif key not in self.public and not self.from_controller():
            self.reply(403, {"error": "control routes need the control token"})
        else:
            getattr(self, name)()

    def from_controller(self) -> bool:
        token = self.server.control_token
        if token is None:
            return True
        nonce = self.headers.get("X-Control-Nonce", "")
        wanted = signature(token, "request", nonce, f"{self.command} {self.path}".encode())
        return bool(nonce) and hmac.compare_digest(self.headers.get("X-Control-Auth", ""), wanted)

    def claim(self) -> None:
        """POST /claim {"token": ...}: the first caller becomes the only one allowed on the control routes."""
        token = str(self.body().get("token") or "")
        with self.server.claim_lock:
            if self.server.control_token is not None or not token:
                self.reply(409, {"error": "already claimed"})
                return
            self.server.control_token = token
        self.reply(200, {"ok": True})

    def reset(self) -> None:
        """POST /reset: the fake's state back to new (the state has ``lock`` and ``reset()``)."""
        with self.server.state.lock:
            self.server.state.reset()
        self.reply(200, {"ok": True})

    def do_GET(self) -> None:
        self._route("GET")

    def do_POST(self) -> None:
        self._route("POST")


def signature(token: str, kind: str, nonce: str, data: bytes) -> str:
    """HMAC-SHA256 of a control request (``kind`` "request": method and path) or of a reply's body."""
    return hmac.new(token.encode(), f"{kind}\n{nonce}\n".encode() + data, hashlib.sha256).hexdigest()


def not_dumpable() -> None:
    """No other process of this user may read this one's memory (where the control token lives)."""
    try:
        ctypes.CDLL(None, use_errno=True).prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, 0
    except (OSError, AttributeError):
        pass


def serve(handler: type[JsonHandler], state: object, port: int = 0) -> None:
    """Run `handler` on 127.0.0.1:`port` until SIGTERM; the handler finds `state` on ``self.server.state``."""
    not_dumpable()
    server = ThreadingHTTPServer(("127.0.0.1", port), handler)
    server.daemon_threads = True
    server.state = state  # type: ignore[attr-defined]
    server.control_token = None  # type: ignore[attr-defined]
    server.claim_lock = threading.Lock()  # type: ignore[attr-defined]
    signal.signal(signal.SIGTERM, lambda *_: threading.Thread(target=server.shutdown).start())
    print(f"listening on 127.0.0.1:{server.server_address[1]}", flush=True)
    try:
        server.serve_forever(poll_interval=0.5)
    except KeyboardInterrupt:
        pass
    server.server_close()
    sys.exit(0)


def main(handler: type[JsonHandler], state: object, description: str) -> None:
    """Command line of a fake: ``--port`` (default: any free port), then serve()."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--port", type=int, default=0)
    serve(handler, state, parser.parse_args().port)
