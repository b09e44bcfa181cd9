"""A fast embedded Redis: fakeredis over TCP with Nagle off and pushed replies written at once.

Run as a process: ``python -m celerylab.stack.embedded_redis [--port N]``. It prints
``listening on 127.0.0.1:PORT`` when it accepts connections.

Stock fakeredis' TCP handler leaves Nagle's algorithm on (each reply stalls on the
peer's delayed ACK, ~40 ms) and polls its socket every 10 ms for replies pushed by
other connections (pub/sub, blocking pops). This handler sets TCP_NODELAY and gives
every connection two threads: one feeds client bytes to the fake server and writes
the replies, the other blocks until another connection pushes a reply (pub/sub, a
blocking pop woken up) and writes it immediately.
"""
from __future__ import annotations

import argparse
import faulthandler
import signal
import socket
import sys
import threading
from socketserver import StreamRequestHandler

from fakeredis import TcpFakeServer
from fakeredis._clients._tcp_server import TCPFakeRequestHandler


class FastRequestHandler(TCPFakeRequestHandler):
    """One connection: a reader thread answers requests; this thread writes pushed replies."""

    def setup(self) -> None:
        self.request.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        # The stock handler reuses the fake connection registered under the client's
        # (host, port). A port the OS hands out again before the old handler finished would
        # then get the old connection, whose replies go to the old socket: start afresh.
        self.server.clients.pop(self.client_address, None)
        super().setup()
        # The stock handler makes the socket non-blocking for its polling loop; these two
        # threads block instead (a non-blocking sendall could fail on a full buffer).
        self.request.setblocking(True)
        # Connect the fake socket now: were the two threads to race to create it lazily,
        # requests could feed one socket while replies are awaited on another.
        self.current_client.get_socket()
        self._closed = threading.Event()
        self._write_lock = threading.Lock()

    def _drain(self) -> None:
        """Write every queued reply, in order (either thread may call this)."""
        client = self.current_client
        with self._write_lock:
            while client.can_read(timeout=0):
                try:
                    response = client.read_response()
                except Exception as error:  # an error reply, sent as such
                    response = error
                self.writer.dump(response)

    def _read_requests(self) -> None:
        fake_socket = self.current_client.get_socket()
        try:
            while not self._closed.is_set():
                data = self.connection.recv(65536)
                if not data:
                    break
                fake_socket.sendall(data)
                self._drain()  # the common case: answer on this thread, no hand-off
        except (OSError, ConnectionError, ValueError):
            pass
        finally:
            self._closed.set()
            fake_socket.response_ready.set()

    def handle(self) -> None:
        reader = threading.Thread(target=self._read_requests, daemon=True)
        reader.start()
        client = self.current_client
        try:
            while not self._closed.is_set() and not self.server._shutdown_event.is_set():
                # Replies wake this at once; the timeout only bounds how long a closed
                # connection goes unnoticed (the selector clears the close signal).
                if client.can_read(timeout=1.0):
                    self._drain()  # replies pushed by other connections (pub/sub, wake-ups)
        except (OSError, ConnectionError, ValueError):
            pass
        finally:
            self._closed.set()

    def finish(self) -> None:
        self.current_client.disconnect()
        if self.server.clients.get(self.client_address) is self.current_client:
            del self.server.clients[self.client_address]
        StreamRequestHandler.finish(self)


class FastFakeServer(TcpFakeServer):
    daemon_threads = True

    def __init__(self, address: tuple[str, int]):
        super().__init__(address)
        self.RequestHandlerClass = FastRequestHandler
        self.daemon_threads = True


def serve(host: str = "127.0.0.1", port: int = 0) -> FastFakeServer:
    """Start a server in a background thread and return it (``server.server_address``)."""
    server = FastFakeServer((host, port))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=0)
    args = parser.parse_args(argv)
    # Two threads per connection hand the GIL back and forth on every command. 5 ms is
    # CPython's default switch interval; 1 ms and 0.2 ms gave no measurable gain (benchmarks/stack.py).
    sys.setswitchinterval(0.005)
    faulthandler.register(signal.SIGUSR1, all_threads=True)  # `kill -USR1` prints every thread's stack
    server = FastFakeServer((args.host, args.port))
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    host, port = server.server_address[:2]
    print(f"listening on {host}:{port}", flush=True)
    try:
        server.serve_forever(poll_interval=0.5)
    except (KeyboardInterrupt, SystemExit):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
