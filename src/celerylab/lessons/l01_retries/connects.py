"""Connection attempts a worker makes to one address, reported to the check's own process as they happen.

A worker started with $L01_CONNECTS_REPORT ("host:port" of the check's UDP socket) and $L01_CONNECTS_TO (the
"host:port" watched) sends one datagram to the check for each `socket.connect` to the watched address (a Python
audit hook, installed as the lesson's app is imported, before the answer's code runs, and never removable): a
refused connection, which reaches no server, is still counted, and what the task's code does cannot take one back.
"""
from __future__ import annotations

import os
import socket
import sys
import time

REPORT_ENV = "L01_CONNECTS_REPORT"
WATCH_ENV = "L01_CONNECTS_TO"


def _address(text: str) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    return host, int(port)


def install() -> None:
    """Report this process's (and its forked children's) connections to the watched address, if asked to."""
    report, watched = os.environ.get(REPORT_ENV), os.environ.get(WATCH_ENV)
    if not (report and watched):
        return
    target, to = _address(watched), _address(report)
    sender = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    send = sender.sendto  # bound now: nothing patched on the socket class later reaches it

    def hook(event: str, args: tuple) -> None:
        if event == "socket.connect" and len(args) > 1 and tuple(args[1][:2]) == target:
            try:
                send(b"connect", to)
            except OSError:
                pass

    sys.addaudithook(hook)


class Counter:
    """The check's end: a UDP socket that counts the datagrams the watched workers send."""

    def __init__(self):
        self.socket = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        self.socket.bind(("127.0.0.1", 0))
        self.socket.setblocking(False)

    def env(self, watched: str) -> dict:
        host, port = self.socket.getsockname()
        return {REPORT_ENV: f"{host}:{port}", WATCH_ENV: watched}

    def take(self, settle: float = 0.1) -> int:
        """How many attempts were reported since the last call (waits `settle` for the last ones)."""
        time.sleep(settle)
        count = 0
        while True:
            try:
                self.socket.recv(64)
            except BlockingIOError:
                return count
            count += 1

    def close(self) -> None:
        self.socket.close()
